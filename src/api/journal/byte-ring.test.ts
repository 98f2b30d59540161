import { describe, expect, it } from 'vitest';
import { ByteRing } from './byte-ring.ts';

/** Pushes a record of `length` bytes all `value`, and answers its slot. */
function put(ring: ByteRing, length: number, value: number): number {
  const slot = ring.push(length);
  ring.buffer.fill(value, ring.offsetOf(slot), ring.offsetOf(slot) + length);
  return slot;
}

/** Each record, newest first, as [length, its byte] (checking all its bytes are that one). */
function records(ring: ByteRing): [number, number][] {
  return Array.from({ length: ring.count }, (_, i) => {
    const slot = ring.slotOf(i);
    const bytes = ring.buffer.subarray(ring.offsetOf(slot), ring.offsetOf(slot) + ring.lengthOf(slot));
    expect(new Set(bytes).size).toBe(1);
    return [bytes.length, bytes[0]!];
  });
}

describe('ByteRing', () => {
  it('keeps the newest records by count, wrapping inside its buffer without growing', () => {
    const ring = new ByteRing(3, 100);
    const buffer = ring.buffer;
    for (let i = 1; i <= 40; i++) put(ring, 10 + (i % 7), i);
    expect(records(ring)).toEqual([
      [10 + (40 % 7), 40],
      [10 + (39 % 7), 39],
      [10 + (38 % 7), 38],
    ]);
    expect(ring.buffer).toBe(buffer);
  });

  it('grows rather than drop a record it has room for by count, and keeps every record whole', () => {
    const ring = new ByteRing(4, 16);
    put(ring, 10, 1);
    put(ring, 10, 2);
    put(ring, 30, 3);
    put(ring, 5, 4);
    put(ring, 50, 5);
    expect(records(ring)).toEqual([
      [50, 5],
      [5, 4],
      [30, 3],
      [10, 2],
    ]);
    ring.clear();
    expect([ring.count, ring.buffer.length]).toEqual([0, 16]);
    put(ring, 1, 9);
    expect(records(ring)).toEqual([[1, 9]]);
  });

  it('survives a random walk of sizes against a plain list of the same records', () => {
    const ring = new ByteRing(5, 8);
    const plain: [number, number][] = [];
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const length = 1 + (seed % 40);
      put(ring, length, i % 256);
      plain.unshift([length, i % 256]);
      plain.length = Math.min(plain.length, 5);
      expect(records(ring)).toEqual(plain);
    }
  });

  it('drops the oldest to make room only past the largest buffer it may grow to', () => {
    const ring = new ByteRing(10, 8, 64);
    for (let i = 1; i <= 5; i++) put(ring, 20, i);
    expect(records(ring)).toEqual([
      [20, 5],
      [20, 4],
      [20, 3],
    ]);
    expect(ring.buffer.length).toBeLessThanOrEqual(64);
    expect(() => ring.push(65)).toThrow(RangeError);
  });

  it('refuses a record of no bytes, and any record when it has no slots', () => {
    expect(() => new ByteRing(2).push(0)).toThrow(RangeError);
    expect(() => new ByteRing(0).push(4)).toThrow(RangeError);
  });
});
