// A commit becomes one journal line, checksummed so a torn write is told from a damaged one: the
// line's format, written and read.
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

/**
 * Why a line is not a record. A line whose checksum does not match (or that has none) may be a
 * write a crash cut short; a line whose checksum matches was written whole, as it is, so if it is
 * no record, no crash made it.
 */
export interface BadLine {
  /** The checksum matched: the line is whole. */
  whole: boolean;
  why: string;
}

/** The record on a line (without its line feed), or why it is not one. */
export function decodeRecord(line: string): JournalRecord | BadLine {
  if (line.length < 10 || line[8] !== ' ') return { whole: false, why: 'no checksum' };
  const json = line.slice(9);
  if (checksum(json) !== line.slice(0, 8)) return { whole: false, why: 'checksum mismatch' };
  let record: unknown;
  try {
    record = JSON.parse(json);
  } catch (err) {
    return { whole: true, why: `not JSON (${(err as Error).message})` };
  }
  const why = recordShapeProblem(record);
  return why ? { whole: true, why: `not a journal record: ${why}` } : (record as JournalRecord);
}

/** True when `decodeRecord` found no record. */
export function isBadLine(decoded: JournalRecord | BadLine): decoded is BadLine {
  return 'why' in decoded;
}

const isString = (v: unknown) => typeof v === 'string';

/** What keeps a parsed line from being a record `applyRecord` can apply, or undefined. */
function recordShapeProblem(r: unknown): string | undefined {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return 'not an object';
  const { seq, rows, meta, clear } = r as Record<string, unknown>;
  if (!Number.isSafeInteger(seq) || (seq as number) < 1) return 'seq must be a whole number from 1';
  if (!Array.isArray(rows)) return 'rows must be an array';
  const badRow = rows.findIndex(
    (c) =>
      !Array.isArray(c) ||
      c.length < 2 ||
      c.length > 4 ||
      !isString(c[0]) ||
      !isString(c[1]) ||
      (c.length === 4 && c[3] !== 1),
  );
  if (badRow !== -1)
    return `rows[${badRow}] must be [collection, id], [collection, id, row] or [collection, id, row, 1]`;
  if (!Array.isArray(meta)) return 'meta must be an array';
  const badMeta = meta.findIndex((c) => !Array.isArray(c) || c.length < 1 || c.length > 2 || !isString(c[0]));
  if (badMeta !== -1) return `meta[${badMeta}] must be [key] or [key, value]`;
  if (clear !== undefined && (!Array.isArray(clear) || !clear.every(isString)))
    return 'clear must be an array of meta keys';
  return undefined;
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
