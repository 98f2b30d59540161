// Ids are held by every stored record for its whole life, so they are made as compact strings (a
// measured memory saving at 100,000 records).
import { randomUUID } from 'node:crypto';

/**
 * A new random UUID, as one flat string. Node's randomUUID() builds its text by concatenation, a
 * rope of 14 cons strings over 16 two-character pieces; an id kept in a stored record keeps that
 * rope for the record's life: about 450 bytes and 15 objects for every full collection to mark,
 * against one string of 56 bytes copied out of it here (measured on a heap snapshot of 100,000
 * stored accounts: bench/RESULTS.md, 2026-11-27).
 */
export function newId(): string {
  return Buffer.from(randomUUID(), 'latin1').toString('latin1');
}
