import { describe, expect, it } from 'vitest';
import { MinHeap } from './heap.ts';

describe('MinHeap', () => {
  it('pops in order, whatever the order of pushes, with ties broken by the comparator', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const heap = new MinHeap<{ due: number; seq: number }>(
      (a, b) => a.due < b.due || (a.due === b.due && a.seq < b.seq),
    );
    const items = Array.from({ length: 2000 }, (_, seq) => ({ due: Math.floor(rnd() * 300), seq }));
    for (const item of items) heap.push(item);
    expect(heap.size).toBe(2000);
    const out: Array<{ due: number; seq: number }> = [];
    for (let x = heap.pop(); x; x = heap.pop()) out.push(x);
    expect(out).toEqual([...items].sort((a, b) => a.due - b.due || a.seq - b.seq));
    expect(heap.pop()).toBeUndefined();
    expect(heap.peek()).toBeUndefined();
  });

  it('interleaves pushes and pops', () => {
    const heap = new MinHeap<number>((a, b) => a < b);
    for (const n of [5, 3, 8]) heap.push(n);
    expect(heap.pop()).toBe(3);
    heap.push(1);
    heap.push(9);
    expect([heap.pop(), heap.pop(), heap.pop(), heap.pop(), heap.pop()]).toEqual([1, 5, 8, 9, undefined]);
  });
});
