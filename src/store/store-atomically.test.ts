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
    expect(
      things
        .values()
        .map((t) => [t.id, t.n])
        .sort(),
    ).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect(things.size).toBe(2);
    expect(
      things
        .lookup('tag', 'x')
        .map((t) => t.id)
        .sort(),
    ).toEqual(['a', 'b']);
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

  it('undoes only an inner unit whose failure the outer one catches (a savepoint)', async () => {
    const { store, things } = await storeWithThings();
    store.atomically(() => {
      things.put({ id: 'c', n: 3 });
      try {
        store.atomically(() => {
          things.put({ id: 'd', n: 4 });
          things.delete('a');
          throw new Error('inner');
        });
      } catch {
        // handled: the outer unit goes on
      }
      things.put({ id: 'e', n: 5 });
    });
    expect(
      things
        .values()
        .map((t) => t.id)
        .sort(),
    ).toEqual(['a', 'b', 'c', 'e']);
  });

  it('tells rollback listeners which collections were put back', async () => {
    const { store, things } = await storeWithThings();
    const other = store.collection<Thing>('others');
    const heard: string[][] = [];
    store.onRollback((names) => heard.push([...names].sort()));
    store.atomically(() => things.put({ id: 'c', n: 3 })); // kept: nobody is told
    expect(() =>
      store.atomically(() => {
        things.put({ id: 'd', n: 4 });
        other.put({ id: 'x', n: 0 });
        store.setMeta('kept', 'after');
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(heard).toEqual([['others', 'things']]);
  });

  it('goes on undoing past a step that fails, and reports both errors', async () => {
    const store = await openStore();
    const things = store.collection<Thing>('things');
    things.defineIndex('strict', (t) => {
      if (t.n === 13) throw new Error('13 cannot be indexed');
      return String(t.n);
    });
    const failure = (() => {
      try {
        store.atomically(() => {
          things.put({ id: 'z', n: 1 });
          things.put({ id: 'bad', n: 13 }); // stored, then the index throws; undoing it throws again
        });
      } catch (err) {
        return err;
      }
    })();
    expect(failure).toBeInstanceOf(AggregateError);
    expect((failure as AggregateError).errors.map((e: Error) => e.message)).toEqual([
      '13 cannot be indexed',
      '13 cannot be indexed',
    ]);
    expect(things.has('z')).toBe(false); // the step before the broken one was still undone
  });

  it('records nothing after it ends: a later failure outside it undoes nothing', async () => {
    const { store, things } = await storeWithThings();
    store.atomically(() => things.put({ id: 'c', n: 3 }));
    expect(() =>
      store.atomically(() => {
        throw new Error('empty unit');
      }),
    ).toThrow('empty unit');
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
    // The refused promise's own rejection is handled: nothing reaches unhandledRejection.
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listen);
    expect(() => store.atomically(async () => Promise.reject(new Error('later')))).toThrow(TypeError);
    await new Promise((r) => setTimeout(r, 10));
    process.off('unhandledRejection', listen);
    expect(unhandled).toEqual([]);
  });

  it('does not let a reset run inside a unit', async () => {
    const { store } = await storeWithThings();
    expect(() => store.atomically(() => store.clear())).toThrow('store.clear cannot run inside atomically');
  });
});
