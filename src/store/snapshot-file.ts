// The journal engine's base file: the whole store at one sequence number, written and read a row at
// a time so no store is too large for it.
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Row } from './collection.ts';
import { journalPaths } from './journal-paths.ts';
import { forEachLine } from './line-reader.ts';
import { emptyStoreData, type StoreData } from './store-data.ts';
import { StoreError } from './store-error.ts';
import { syncDirectory } from './sync-directory.ts';

/**
 * A snapshot: the whole store as JSON lines, written row by row so no size makes one giant string.
 *   {"scheme-sim":"snapshot","format":2,"seq":N}   the journal records up to N are in it
 *   {"m":key,"v":value}                            one meta key
 *   {"c":collection}                               a collection, before its rows (kept when empty)
 *   {"id":id,…the row}                             a row of that collection, under its own id
 *   {"c":collection,"i":id,"r":row}                a row stored under another key than its id
 * A row line is the row itself (no wrapper to write or parse: start-up at a million rows is mostly
 * JSON.parse); no other kind of line has an `id`.
 *   {"end":true,"rows":R,"meta":M}                 written last: a snapshot without it is not whole
 */
export const SNAPSHOT_MARK = '{"scheme-sim":"snapshot"';

/** What a snapshot holds, captured at one instant: meta copied, rows by reference (rows are replaced, never mutated). */
export interface SnapshotContent {
  seq: number;
  meta: Record<string, unknown>;
  collections: Array<[name: string, ids: string[], rows: Row[]]>;
}

/** Captures the store's data as it is now, cheaply: the snapshot is then written from the capture. */
export function captureSnapshot(seq: number, data: StoreData): SnapshotContent {
  const collections: SnapshotContent['collections'] = [];
  // Two copies of a Map's keys and values: tens of milliseconds at a million rows.
  for (const [name, table] of Object.entries(data.collections))
    collections.push([name, [...table.keys()], [...table.values()]]);
  return { seq, meta: JSON.parse(JSON.stringify(data.meta)) as Record<string, unknown>, collections };
}

const FLUSH_AT = 256 * 1024;
/**
 * Written data is flushed to disk every MiB as it goes. Left to one fsync at the end, tens of MB
 * (a store after a two-year advance) go to disk at once, and a commit's O_DSYNC append waits
 * behind them: 11–12 ms for 25 MB on this machine's disk, against about 1 ms with a flush every MiB
 * (which made the whole write a few ms longer).
 */
const SYNC_EVERY = 1024 * 1024;

/**
 * Writes a snapshot durably: to a temporary file (owner-only), fsynced, renamed over `file`, and
 * the directory fsynced. Rows are stringified one by one and written in 256 KB pieces, flushed
 * every MiB; each write is awaited, so a large snapshot gives the event loop back between pieces.
 */
export async function writeSnapshot(file: string, content: SnapshotContent): Promise<void> {
  const temp = journalPaths(file).snapshotTemp;
  const handle = await open(temp, 'w', 0o600);
  try {
    let pending: string[] = [];
    let size = 0;
    let unsynced = 0;
    const flush = async () => {
      if (pending.length === 0) return;
      const text = pending.join('');
      pending = [];
      size = 0;
      const { bytesWritten } = await handle.write(text);
      unsynced += bytesWritten;
      if (unsynced >= SYNC_EVERY) {
        unsynced = 0;
        await handle.datasync();
      }
    };
    const add = async (line: string) => {
      pending.push(line);
      size += line.length;
      if (size >= FLUSH_AT) await flush();
    };
    await add(`${SNAPSHOT_MARK},"format":2,"seq":${content.seq}}\n`);
    let metaCount = 0;
    for (const [key, value] of Object.entries(content.meta)) {
      metaCount++;
      await add(`${JSON.stringify({ m: key, v: value })}\n`);
    }
    let rowCount = 0;
    for (const [name, ids, rows] of content.collections) {
      await add(`{"c":${JSON.stringify(name)}}\n`);
      const prefix = `{"c":${JSON.stringify(name)},"i":`;
      for (let i = 0; i < ids.length; i++) {
        rowCount++;
        const row = rows[i]!;
        await add(
          typeof row === 'object' && row !== null && row.id === ids[i]
            ? `${JSON.stringify(row)}\n`
            : `${prefix}${JSON.stringify(ids[i])},"r":${JSON.stringify(row)}}\n`,
        );
      }
    }
    await add(`{"end":true,"rows":${rowCount},"meta":${metaCount}}\n`);
    await flush();
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  await rename(temp, file);
  await syncDirectory(dirname(file));
}

/** True when the text starts as a snapshot does (anything else at the data path is the older one-document format). */
export function isSnapshotStart(text: string): boolean {
  return text.startsWith(SNAPSHOT_MARK);
}

/** A snapshot line that is not what a snapshot holds there: where it is, and what is wrong. */
export class SnapshotDamaged extends StoreError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly offset: number,
    readonly why: string,
  ) {
    super(`data file ${file} is damaged at line ${line}, byte offset ${offset}: ${why}`);
  }
}

/** Reads a snapshot line by line; a damaged or unfinished one stops with an error naming the file and offset. */
export async function readSnapshot(file: string): Promise<{ seq: number; data: StoreData }> {
  const data = emptyStoreData();
  let seq: number | undefined;
  let ended = false;
  /** The collection of the last `{"c":…}` line: bare rows belong to it. */
  let current: Map<string, Row> | undefined;
  let rows = 0;
  let metaKeys = 0;
  let lineNo = 0;
  const fail = (offset: number, why: string, line = lineNo): never => {
    throw new SnapshotDamaged(file, line, offset, why);
  };
  const tail = await forEachLine(file, (line, offset) => {
    lineNo++;
    if (ended) fail(offset, 'text after the end of the snapshot');
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch (err) {
      return fail(offset, `not JSON (${(err as Error).message})`);
    }
    if (seq === undefined) {
      if (entry['scheme-sim'] !== 'snapshot' || entry.format !== 2 || !Number.isSafeInteger(entry.seq))
        fail(offset, 'not a scheme-sim snapshot header');
      seq = entry.seq as number;
    } else if (typeof entry.id === 'string') {
      if (current === undefined) fail(offset, 'a row before any collection line');
      current!.set(entry.id, entry as unknown as Row);
      rows++;
    } else if (typeof entry.c === 'string' && typeof entry.i === 'string' && 'r' in entry) {
      (data.collections[entry.c] ??= new Map()).set(entry.i, entry.r as Row);
      rows++;
    } else if (typeof entry.c === 'string' && Object.keys(entry).length === 1) {
      current = data.collections[entry.c] ??= new Map();
    } else if (typeof entry.m === 'string' && 'v' in entry) {
      data.meta[entry.m] = entry.v;
      metaKeys++;
    } else if (entry.end === true) {
      if (entry.rows !== rows || entry.meta !== metaKeys)
        fail(
          offset,
          `the end says ${String(entry.rows)} rows and ${String(entry.meta)} meta keys, found ${rows} and ${metaKeys}`,
        );
      ended = true;
    } else fail(offset, 'not a snapshot line');
  });
  if (tail.text.length > 0) fail(tail.offset, 'an unfinished line', lineNo + 1);
  if (seq === undefined || !ended) fail(tail.offset, 'the snapshot is not whole (no end line)', lineNo + 1);
  return { seq: seq as number, data };
}
