import { describe, expect, it } from 'vitest';
import { Collection } from './collection.ts';

interface Row {
  id: string;
  org: string;
  status: string;
}

describe('Collection indexes', () => {
  it('keep insertion order when a row is replaced without changing its key', () => {
    const c = new Collection<Row>(new Map(), () => {});
    c.defineIndex('org', (r) => r.org);
    for (const id of ['a', 'b', 'c']) c.put({ id, org: 'o', status: 'new' });
    c.put({ id: 'a', org: 'o', status: 'changed' });
    expect(c.lookup('org', 'o').map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(c.lookup('org', 'o')[0]!.status).toBe('changed');
    expect(c.size).toBe(3);
  });

  it('move a row whose key changed', () => {
    const c = new Collection<Row>(new Map(), () => {});
    c.defineIndex('status', (r) => r.status);
    c.put({ id: 'a', org: 'o', status: 'new' });
    c.put({ id: 'b', org: 'o', status: 'new' });
    c.put({ id: 'a', org: 'o', status: 'done' });
    expect(c.lookup('status', 'new').map((r) => r.id)).toEqual(['b']);
    expect(c.lookup('status', 'done').map((r) => r.id)).toEqual(['a']);
    c.delete('a');
    expect(c.lookup('status', 'done')).toEqual([]);
  });

  it('first is the first row of lookup, or undefined', () => {
    const c = new Collection<Row>(new Map(), () => {});
    c.defineIndex('org', (r) => r.org);
    expect(c.first('org', 'o')).toBeUndefined();
    for (const id of ['a', 'b']) c.put({ id, org: 'o', status: 'new' });
    expect(c.first('org', 'o')).toBe(c.lookup('org', 'o')[0]);
    c.delete('a');
    expect(c.first('org', 'o')!.id).toBe('b');
    c.delete('b');
    expect(c.first('org', 'o')).toBeUndefined();
    expect(() => c.first('none', 'o')).toThrow('no index none');
  });

  it('count is the length of lookup, kept as rows move between keys', () => {
    const c = new Collection<Row>(new Map(), () => {});
    c.defineIndex('status', (r) => r.status);
    expect(c.count('status', 'new')).toBe(0);
    for (const id of ['a', 'b', 'c']) c.put({ id, org: 'o', status: 'new' });
    c.put({ id: 'b', org: 'o', status: 'done' });
    expect([c.count('status', 'new'), c.count('status', 'done')]).toEqual([2, 1]);
    c.delete('a');
    expect(c.count('status', 'new')).toBe(c.lookup('status', 'new').length);
    expect(() => c.count('none', 'o')).toThrow('no index none');
  });
});
