import { describe, expect, it } from 'vitest';
import { openStore } from './store.ts';

interface Thing {
  id: string;
  n: number;
  tag?: string;
}

async function storeWithThings() {
  const store = await openStore();
  const things = store.collection<Thing>('things');
  things.defineIndex('tag', (t) => t.tag);
  things.put({ id: 'a', n: 1, tag: 'x' });
  things.put({ id: 'b', n: 2, tag: 'x' });
  store.setMeta('kept', 'before');
  return { store, things };
}

describe('store.atomically', () => {
  it('keeps every change of a unit that returns, and answers its result', async () => {
    const { store, things } = await storeWithThings();
    const result = store.atomically(() => {
      things.put({ id: 'c', n: 3 });
      things.delete('a');
      store.setMeta('kept', 'after');
      return 'done';
    });
    expect(result).toBe('done');
    expect(things.values().map((t) => t.id)).toEqual(['b', 'c']);
    expect(store.getMeta('kept')).toBe('after');
  });

  it('undoes puts, replacements, deletes and meta of a unit that throws, indexes included, and rethrows', async () => {
    const { store, things } = await storeWithThings();
    const failure = new Error('half way');
    expect(() =>
      store.atomically(() => {
        things.put({ id: 'c', n: 3, tag: 'x' }); // new
        things.put({ id: 'a', n: 10, tag: 'y' }); // replaced, moving index key
        things.put({ id: 'a', n: 11, tag: 'z' }); // and again: the first state is what comes back
        things.delete('b');
        store.setMeta('kept', 'after');
        store.setMeta('added', 1);
        throw failure;
      }),
    ).toThrow(failure);
    expect(things.values().map((t) => [t.id, t.n]).sort()).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect(things.size).toBe(2);
    expect(things.lookup('tag', 'x').map((t) => t.id).sort()).toEqual(['a', 'b']);
    expect(things.count('tag', 'y') + things.count('tag', 'z')).toBe(0);
    expect(store.getMeta('kept')).toBe('before');
    expect(store.getMeta('added')).toBeUndefined();
    expect(store.dirty).toBe(true); // the restored state is written with the next commit
  });

  it('joins an outer unit: a failure of the outer one undoes the inner one too', async () => {
    const { store, things } = await storeWithThings();
    expect(() =>
      store.atomically(() => {
        store.atomically(() => things.put({ id: 'c', n: 3 }));
        throw new Error('outer');
      }),
    ).toThrow('outer');
    expect(things.has('c')).toBe(false);
  });

  it('records nothing after it ends: a later failure outside it undoes nothing', async () => {
    const { store, things } = await storeWithThings();
    store.atomically(() => things.put({ id: 'c', n: 3 }));
    expect(() => store.atomically(() => {
      throw new Error('empty unit');
    })).toThrow('empty unit');
    expect(things.has('c')).toBe(true);
  });

  it('refuses asynchronous work, undoing what ran before its first await', async () => {
    const { store, things } = await storeWithThings();
    expect(() =>
      store.atomically(async () => {
        things.put({ id: 'c', n: 3 });
        await Promise.resolve();
      }),
    ).toThrow('store.atomically runs synchronous work only');
    expect(things.has('c')).toBe(false);
  });

  it('does not let a reset run inside a unit', async () => {
    const { store } = await storeWithThings();
    expect(() => store.atomically(() => store.clear())).toThrow('store.clear cannot run inside atomically');
  });
});
