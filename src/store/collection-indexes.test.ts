import { describe, expect, it } from 'vitest';
import { Collection } from './collection.ts';

interface Acc {
  id: string;
  org: string;
  sortCode?: string;
}

function make(initial: Record<string, Acc> = {}) {
  let touched = 0;
  const rows = new Map(Object.entries(initial));
  const c = new Collection<Acc>(rows, () => touched++);
  return { c, rows, touched: () => touched };
}

describe('Collection', () => {
  it('puts, gets, replaces and deletes by id, counting and touching the store', () => {
    const { c, rows, touched } = make();
    c.put({ id: 'a', org: 'o1' });
    c.put({ id: 'b', org: 'o1' });
    expect(c.size).toBe(2);
    expect(c.get('a')).toEqual({ id: 'a', org: 'o1' });
    expect(c.has('b')).toBe(true);
    c.put({ id: 'a', org: 'o2' });
    expect(c.size).toBe(2);
    expect(rows.get('a')).toEqual({ id: 'a', org: 'o2' });
    expect(c.delete('a')).toBe(true);
    expect(c.delete('a')).toBe(false);
    expect(c.size).toBe(1);
    expect(touched()).toBe(4);
    expect(c.values().map((r) => r.id)).toEqual(['b']);
  });

  it('does not treat inherited names as ids', () => {
    const { c } = make();
    expect(c.get('constructor')).toBeUndefined();
    expect(c.has('toString')).toBe(false);
    expect(c.delete('__proto__')).toBe(false);
  });

  it('indexes rows already present when an index is defined, and keeps it up to date', () => {
    const { c } = make({ x: { id: 'x', org: 'o1' }, y: { id: 'y', org: 'o2' } });
    expect(c.size).toBe(2);
    c.defineIndex('org', (r) => r.org);
    expect(c.lookup('org', 'o1').map((r) => r.id)).toEqual(['x']);
    c.put({ id: 'z', org: 'o1' });
    expect(c.lookup('org', 'o1').map((r) => r.id)).toEqual(['x', 'z']);
    // Moving a row between keys removes it from the old key.
    c.put({ id: 'x', org: 'o2' });
    expect(c.lookup('org', 'o1').map((r) => r.id)).toEqual(['z']);
    expect(
      c
        .lookup('org', 'o2')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['x', 'y']);
    c.delete('z');
    expect(c.lookup('org', 'o1')).toEqual([]);
    expect(c.lookup('org', 'nobody')).toEqual([]);
  });

  it('leaves rows whose key is undefined out of an index', () => {
    const { c } = make();
    c.defineIndex('sort', (r) => (r.sortCode ? `${r.org}|${r.sortCode}` : undefined));
    c.put({ id: 'a', org: 'o1' });
    c.put({ id: 'b', org: 'o1', sortCode: '400300' });
    expect(c.lookup('sort', 'o1|400300').map((r) => r.id)).toEqual(['b']);
    c.put({ id: 'b', org: 'o1' });
    expect(c.lookup('sort', 'o1|400300')).toEqual([]);
  });

  it('defining an index twice keeps the first, and an unknown index is an error', () => {
    const { c } = make({ a: { id: 'a', org: 'o1' } });
    c.defineIndex('org', (r) => r.org);
    c.defineIndex('org', () => 'other');
    expect(c.lookup('org', 'o1')).toHaveLength(1);
    expect(() => c.lookup('nope', 'x')).toThrow('no index nope');
  });

  it('looks up one key among many without scanning the rest', () => {
    const { c } = make();
    c.defineIndex('org', (r) => r.org);
    for (let i = 0; i < 20_000; i++) c.put({ id: `r${i}`, org: `o${i % 1000}` });
    const calls = { n: 0 };
    const spy = new Collection<Acc>(new Map(), () => undefined);
    spy.defineIndex('org', (r) => (calls.n++, r.org));
    spy.put({ id: 'only', org: 'o' });
    calls.n = 0;
    spy.lookup('org', 'o');
    expect(calls.n).toBe(0); // lookups never call the key function: they read the map
    expect(c.lookup('org', 'o7')).toHaveLength(20);
  });
});
