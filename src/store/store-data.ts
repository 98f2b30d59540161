// What every engine loads and the store holds, in one shape, with the older one-document format
// still read.
import type { Row } from './collection.ts';

/**
 * A store's data in memory, as engines load it: meta by key, and each collection's rows by id in a
 * Map (insertion order is the store's order; a Map enumerates a million rows without the sort a
 * plain object of that size needs).
 */
export interface StoreData {
  format: 1;
  meta: Record<string, unknown>;
  collections: Record<string, Map<string, Row>>;
}

/** A new store's data: no meta, no collections. */
export function emptyStoreData(): StoreData {
  return { format: 1, meta: {}, collections: {} };
}

/** The older one-document format (`{format: 1, meta, collections}` as JSON), and what tests read. */
export interface StoreDocument {
  format: 1;
  meta: Record<string, unknown>;
  collections: Record<string, Record<string, Row>>;
}

/** True when `d` has the older document's outer shape (what is inside the records is the load check's job). */
export function isStoreDocument(d: unknown): d is StoreDocument {
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

export function fromDocument(doc: StoreDocument): StoreData {
  const collections: StoreData['collections'] = {};
  for (const [name, rows] of Object.entries(doc.collections)) collections[name] = new Map(Object.entries(rows));
  return { format: 1, meta: doc.meta, collections };
}

export function toDocument(data: StoreData): StoreDocument {
  const collections: StoreDocument['collections'] = {};
  for (const [name, rows] of Object.entries(data.collections)) collections[name] = Object.fromEntries(rows);
  return { format: 1, meta: data.meta, collections };
}

/** What a store's data holds, engine aside: its meta and its collections of rows by id. */
export interface StoreContent {
  meta: Record<string, unknown>;
  collections: Record<string, Map<string, Row | unknown> | Record<string, Row | unknown>>;
}
