// Two helpers of the reports service kept small and apart: the size limit of rows a client injects,
// and the ids that let a daily report job run twice without making two reports.
import { createHash } from 'node:crypto';

/** Bounds of injected rows: the table (rows × distinct keys) and so every render stays small. */
export const MAX_INJECT_COLUMNS = 40;
export const MAX_INJECT_CELLS = 20_000;

/** Why injected rows are too big to keep, or undefined: at most 40 distinct keys and 20,000 cells. */
export function rowsProblem(rows: ReadonlyArray<Record<string, unknown>>): string | undefined {
  const keys = new Set<string>();
  for (const r of rows) {
    for (const k of Object.keys(r)) keys.add(k);
    if (keys.size > MAX_INJECT_COLUMNS)
      return `rows in body should have at most ${MAX_INJECT_COLUMNS} distinct keys (columns) across all rows`;
  }
  const cells = rows.length * keys.size;
  if (cells > MAX_INJECT_CELLS) {
    return `rows in body should have at most ${MAX_INJECT_CELLS} cells (rows × distinct keys); got ${rows.length} rows × ${keys.size} keys = ${cells}`;
  }
  return undefined;
}

/** A UUID (version-5 layout) derived from a name, for records a scheduled job may try to create twice. */
export function nameUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
