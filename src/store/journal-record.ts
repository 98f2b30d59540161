import { crc32 } from 'node:zlib';
import type { Row } from './collection.ts';
import type { ChangeSet } from './engine.ts';
import type { StoreData } from './store-data.ts';

/**
 * One committed unit in the journal, on one line: `<crc32 of the JSON, 8 hex digits> <JSON>\n`.
 * The JSON is `{seq, clear?, rows: [[collection, id, row, placed?] | [collection, id]], meta: [[key, value] | [key]]}`:
 * an entry without its row (value) is a deletion; `placed` (1) marks an insertion, which goes last. The checksum tells a torn or damaged
 * line from a whole one; the line feed marks the end of a record that was written whole.
 */
export interface JournalRecord {
  seq: number;
  clear?: string[];
  rows: Array<[string, string, Row] | [string, string, Row, 1] | [string, string]>;
  meta: Array<[string, unknown] | [string]>;
}

/** The record's line, serialised now (the rows may be replaced as soon as this returns). */
export function encodeRecord(seq: number, changes: ChangeSet): string {
  const rows: JournalRecord['rows'] = [];
  for (const [name, changed] of changes.rows) {
    const placed = changes.placed.get(name);
    for (const [id, row] of changed)
      rows.push(row === null ? [name, id] : placed?.has(id) ? [name, id, row, 1] : [name, id, row]);
  }
  const meta: JournalRecord['meta'] = [];
  for (const [key, value] of changes.meta) meta.push(value === undefined ? [key] : [key, value]);
  const record: JournalRecord = { seq, ...(changes.cleared ? { clear: changes.cleared.keepMeta } : {}), rows, meta };
  const json = JSON.stringify(record);
  return `${checksum(json)} ${json}\n`;
}

function checksum(json: string): string {
  return crc32(json).toString(16).padStart(8, '0');
}

/** The record on a line (without its line feed), or the reason it is not a whole record. */
export function decodeRecord(line: string): JournalRecord | string {
  if (line.length < 10 || line[8] !== ' ') return 'no checksum';
  const json = line.slice(9);
  if (checksum(json) !== line.slice(0, 8)) return 'checksum mismatch';
  let record: unknown;
  try {
    record = JSON.parse(json);
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  const r = record as JournalRecord;
  if (
    typeof r !== 'object' ||
    r === null ||
    !Number.isSafeInteger(r.seq) ||
    !Array.isArray(r.rows) ||
    !Array.isArray(r.meta) ||
    (r.clear !== undefined && !Array.isArray(r.clear))
  )
    return 'not a journal record';
  return r;
}

/** Applies a record to loaded data, as the commit it came from changed the store. */
export function applyRecord(data: StoreData, record: JournalRecord): void {
  if (record.clear) {
    for (const name of Object.keys(data.collections)) data.collections[name] = new Map();
    const keep = new Set(record.clear);
    for (const key of Object.keys(data.meta)) if (!keep.has(key)) delete data.meta[key];
  }
  for (const change of record.rows) {
    const [name, id] = change;
    const rows = (data.collections[name] ??= new Map());
    if (change.length === 2) rows.delete(id);
    else {
      if (change.length === 4) rows.delete(id); // an insertion: the row goes last
      rows.set(id, change[2]);
    }
  }
  for (const change of record.meta) {
    if (change.length === 2) data.meta[change[0]] = change[1];
    else delete data.meta[change[0]];
  }
}
