import type { Row } from './collection.ts';

/** A store's data as the file engine keeps it: a format mark, meta by key, rows by collection and id. */
export interface StoreData {
  format: 1;
  meta: Record<string, unknown>;
  collections: Record<string, Record<string, Row>>;
}

/** A new store's data: no meta, no collections. */
export function emptyStoreData(): StoreData {
  return { format: 1, meta: {}, collections: {} };
}

/** True when `d` has the store's outer shape (what is inside the records is the load check's job). */
export function isStoreData(d: unknown): d is StoreData {
  if (typeof d !== 'object' || d === null) return false;
  const o = d as Record<string, unknown>;
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  return (
    o.format === 1 &&
    isObject(o.meta) &&
    isObject(o.collections) &&
    Object.values(o.collections as object).every(isObject)
  );
}
