import { open, readFile, truncate } from 'node:fs/promises';
import { journalPaths } from './journal-paths.ts';
import { applyRecord, decodeRecord } from './journal-record.ts';
import { forEachLine } from './line-reader.ts';
import { isSnapshotStart, readSnapshot } from './snapshot-file.ts';
import { emptyStoreData, fromDocument, isStoreDocument, type StoreData } from './store-data.ts';
import { StoreError } from './store-error.ts';

/** What is on disk, loaded: the data, the last sequence, and what start-up has to finish. */
export interface LoadedJournalStore {
  data: StoreData;
  seq: number;
  /** The data file holds the older one-document format: it is migrated once the data passed its checks. */
  legacy: boolean;
  /** There is no snapshot yet (a new store): start-up writes one, so the data file always exists. */
  fresh: boolean;
  /** A rotated journal was found (a compaction did not finish): start-up compacts again. */
  rotated: boolean;
  /** A torn last record was dropped: where the journal has to be cut, and why. */
  tornTail?: { offset: number; why: string };
}

/**
 * Loads a journal store without changing a byte: the snapshot (or an older one-document file),
 * then the rotated journal and the journal, each record after the snapshot's sequence. Only the
 * very last record may be unfinished or damaged (a crash in the middle of an append, never
 * acknowledged): it is reported in `tornTail`. Damage anywhere else stops the load, naming the file
 * and the byte offset: a journal is never silently reset.
 */
export async function loadJournalStore(file: string): Promise<LoadedJournalStore> {
  const paths = journalPaths(file);
  const { data, seq: snapshotSeq, legacy, fresh } = await loadBase(file);
  if (legacy && ((await exists(paths.journal)) || (await exists(paths.rotated))))
    // Our own migration removes the journal before anything else: this file was put back by hand
    // over a later store, and replaying that store's journal onto it would mix two histories.
    throw new StoreError(
      `data file ${file} is in the older one-document format, but ${paths.journal} belongs to a later store: ` +
        'move the journal away to open the file as it is, or put back the snapshot the journal belongs to',
    );
  let seq = snapshotSeq;
  const apply = (path: string, last: boolean) => async () => {
    let torn: { offset: number; why: string } | undefined;
    const tail = await forEachLine(path, (line, offset) => {
      if (torn) throw damaged(path, torn.offset, torn.why); // a bad record with whole records after it
      const record = decodeRecord(line);
      if (typeof record === 'string') {
        torn = { offset, why: record };
        return;
      }
      if (record.seq <= seq) return; // already in the snapshot
      applyRecord(data, record);
      seq = record.seq;
    });
    if (tail.text.length > 0) {
      if (torn) throw damaged(path, torn.offset, torn.why);
      torn = { offset: tail.offset, why: 'an unfinished record' };
    }
    if (torn && !last) throw damaged(path, torn.offset, torn.why);
    return torn;
  };
  const rotated = await exists(paths.rotated);
  if (rotated) await apply(paths.rotated, false)();
  const tornTail = await apply(paths.journal, true)();
  return { data, seq, legacy, fresh, rotated, ...(tornTail ? { tornTail } : {}) };
}

function damaged(path: string, offset: number, why: string): StoreError {
  return new StoreError(
    `journal ${path} is damaged at byte offset ${offset} (${why}) with whole records after it; ` +
      'nothing was changed: restore a backup, or cut the file at that offset to drop the records from there on',
  );
}

async function loadBase(file: string): Promise<{ data: StoreData; seq: number; legacy: boolean; fresh: boolean }> {
  let head: string;
  try {
    const handle = await open(file, 'r');
    try {
      const buf = Buffer.alloc(64);
      const { bytesRead } = await handle.read(buf, 0, 64, 0);
      head = buf.toString('utf8', 0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { data: emptyStoreData(), seq: 0, legacy: false, fresh: true };
    throw new StoreError(`cannot read data file ${file}: ${(err as Error).message}`);
  }
  if (isSnapshotStart(head)) return { ...(await readSnapshot(file)), legacy: false, fresh: false };
  return { data: await readLegacy(file), seq: 0, legacy: true, fresh: false };
}

/** The older format: the whole store as one JSON document (it could not pass V8's longest string, so it fits in one). */
async function readLegacy(file: string): Promise<StoreData> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new StoreError(`cannot read data file ${file}: ${(err as Error).message}`);
  }
  if (!isStoreDocument(raw))
    throw new StoreError(
      `data file ${file} is not a scheme-sim store (expected a snapshot or {format: 1, meta, collections})`,
    );
  return fromDocument(raw);
}

async function exists(path: string): Promise<boolean> {
  try {
    await open(path, 'r').then((h) => h.close());
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new StoreError(`cannot read ${path}: ${(err as Error).message}`);
  }
}

/** Cuts a torn last record off the journal, so the next append starts on a clean line. */
export async function cutTornTail(journal: string, offset: number): Promise<void> {
  await truncate(journal, offset);
}
