// The three store engines must behave alike: one suite of what a store promises, which each engine's
// test file runs against it.
import { describe, expect, it } from 'vitest';
import type { ChangeSet, Engine } from '../../src/store/engine.ts';
import { type OpenStoreOptions, openStore, type Store, StoreError } from '../../src/store/store.ts';

/**
 * The contract every engine keeps (docs/store.md): the same suite runs against memory, the journal
 * file and PostgreSQL (src/store/store-contract.test.ts, src/store/postgres-contract.test.ts).
 */
export interface EngineUnderTest {
  name: string;
  /** Whether the data outlives the store (false for memory). */
  durable: boolean;
  /** Whether a long advance writes a slice while it runs the next (decisions 044, 045): PostgreSQL only. */
  commitsOverlap: boolean;
  /** Options naming a new, empty location; each call gives another. */
  fresh(): Promise<OpenStoreOptions>;
}

type Row = { id: string; n?: number; text?: string };

/** An engine wrapper whose writes fail ("disk full") while `fail` is set. */
function failingWrites(fail: boolean) {
  const state = {
    fail,
    wrap: (inner: Engine): Engine => ({
      location: inner.location,
      load: () => inner.load(),
      close: () => inner.close(),
      persist: (changes: ChangeSet) => (state.fail ? Promise.reject(new Error('disk full')) : inner.persist(changes)),
    }),
  };
  return state;
}

export function storeContract(engine: EngineUnderTest): void {
  describe(`the store contract: ${engine.name}`, () => {
    const reopen = async (options: OpenStoreOptions, store: Store) => {
      await store.close();
      return openStore(options);
    };

    it(`says whether an advance may run a slice while the last is written: ${engine.commitsOverlap}`, async () => {
      const store = await openStore(await engine.fresh());
      expect(store.commitsOverlap).toBe(engine.commitsOverlap);
      await store.close();
    });

    it('keeps rows and meta, reads them at once, and has them after a reopen', async () => {
      const options = await engine.fresh();
      const store = await openStore(options);
      const rows = store.collection<Row>('rows');
      rows.put({ id: 'a', n: 1 });
      rows.put({ id: 'b', n: 2 });
      rows.put({ id: 'a', n: 3 });
      rows.delete('b');
      store.setMeta('clock', { mode: 'frozen', at: '2026-01-01' });
      store.setMeta('gone', 1);
      store.setMeta('gone', undefined);
      expect(rows.get('a')).toEqual({ id: 'a', n: 3 });
      expect(store.dirty).toBe(true);
      await store.commit();
      expect(store.dirty).toBe(false);
      if (!engine.durable) return store.close();
      const again = await reopen(options, store);
      expect(again.collection<Row>('rows').values()).toEqual([{ id: 'a', n: 3 }]);
      expect(again.getMeta('clock')).toEqual({ mode: 'frozen', at: '2026-01-01' });
      expect(again.getMeta('gone')).toBeUndefined();
      await again.close();
    });

    it('undoes a failed unit and persists only what stood', async () => {
      const options = await engine.fresh();
      const store = await openStore(options);
      const rows = store.collection<Row>('rows');
      rows.put({ id: 'kept', n: 1 });
      expect(() =>
        store.atomically(() => {
          rows.put({ id: 'kept', n: 2 });
          rows.put({ id: 'new' });
          store.setMeta('m', 1);
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(rows.values()).toEqual([{ id: 'kept', n: 1 }]);
      await store.commit();
      if (!engine.durable) return store.close();
      const again = await reopen(options, store);
      expect(again.collection('rows').values()).toEqual([{ id: 'kept', n: 1 }]);
      expect(again.getMeta('m')).toBeUndefined();
      await again.close();
    });

    it('clears everything but the kept meta, and the clear outlives a reopen', async () => {
      const options = await engine.fresh();
      const store = await openStore(options);
      store.collection('a').put({ id: '1' });
      store.collection('b').put({ id: '2' });
      store.setMeta('auth_key', 'k'.repeat(32));
      store.setMeta('clock', 1);
      await store.commit();
      store.clear({ keepMeta: ['auth_key'] });
      store.collection('b').put({ id: 'after' });
      await store.commit();
      expect(store.collection('a').size).toBe(0);
      if (!engine.durable) return store.close();
      const again = await reopen(options, store);
      expect(again.collection('a').size).toBe(0);
      expect(again.collection('b').values()).toEqual([{ id: 'after' }]);
      expect(again.getMeta('auth_key')).toBe('k'.repeat(32));
      expect(again.getMeta('clock')).toBeUndefined();
      await again.close();
    });

    it('group-commits: 100 concurrent commits all resolve with their change durable', async () => {
      const options = await engine.fresh();
      const store = await openStore(options);
      const commits: Promise<void>[] = [];
      for (let i = 0; i < 100; i++) {
        store.collection<Row>('rows').put({ id: `r${i}`, n: i });
        commits.push(store.commit());
      }
      await Promise.all(commits);
      if (!engine.durable) return store.close();
      const again = await reopen(options, store);
      expect(again.collection('rows').size).toBe(100);
      await again.close();
    });

    it('a failed write rejects with a StoreError and hands the changes to the next commit', async () => {
      const options = await engine.fresh();
      const writes = failingWrites(true);
      const store = await openStore({ ...options, wrapEngine: writes.wrap });
      store.collection<Row>('rows').put({ id: 'kept' });
      store.setMeta('m', 'v');
      await expect(store.commit()).rejects.toBeInstanceOf(StoreError);
      expect(store.dirty).toBe(true);
      writes.fail = false;
      store.collection<Row>('rows').put({ id: 'later' });
      await store.commit();
      if (!engine.durable) return store.close();
      const again = await reopen(options, store);
      expect(
        again
          .collection('rows')
          .values()
          .map((r) => r.id),
      ).toEqual(['kept', 'later']);
      expect(again.getMeta('m')).toBe('v');
      await again.close();
    });

    it('hands a failed clear and failed insertions again, in their order, with the changes after them', async () => {
      const options = await engine.fresh();
      const writes = failingWrites(false);
      const store = await openStore({ ...options, wrapEngine: writes.wrap });
      const rows = store.collection<Row>('queue');
      for (const id of ['old-1', 'old-2']) rows.put({ id });
      store.setMeta('auth_key', 'kept');
      store.setMeta('clock', 1);
      await store.commit();
      writes.fail = true;
      store.clear({ keepMeta: ['auth_key'] });
      rows.put({ id: 'a' });
      rows.put({ id: 'b' });
      await expect(store.commit()).rejects.toBeInstanceOf(StoreError);
      writes.fail = false;
      rows.put({ id: 'c' });
      rows.put({ id: 'a', n: 1 }); // in place: a stays first
      await store.commit();
      expect(rows.values().map((r) => r.id)).toEqual(['a', 'b', 'c']);
      if (!engine.durable) return store.close();
      const again = await reopen(options, store);
      expect(again.collection<Row>('queue').values()).toEqual([{ id: 'a', n: 1 }, { id: 'b' }, { id: 'c' }]);
      expect(again.getMeta('auth_key')).toBe('kept');
      expect(again.getMeta('clock')).toBeUndefined();
      await again.close();
    });

    it('persists a 20,000-row unit and loads it back whole', async () => {
      const options = await engine.fresh();
      const store = await openStore(options);
      const rows = store.collection<Row>('rows');
      store.atomically(() => {
        for (let i = 0; i < 20_000; i++) rows.put({ id: `r${i}`, text: `row ${i} ✓ "quoted"` });
      });
      await store.commit();
      if (!engine.durable) return store.close();
      const again = await reopen(options, store);
      expect(again.collection('rows').size).toBe(20_000);
      expect(again.collection<Row>('rows').get('r19999')).toEqual({ id: 'r19999', text: 'row 19999 ✓ "quoted"' });
      await again.close();
    });

    it('keeps insertion order across a reopen: an update keeps its place, a re-insertion goes last', async () => {
      const options = await engine.fresh();
      const store = await openStore(options);
      const rows = store.collection<Row>('queue');
      for (const id of ['a', 'b', 'c', 'd']) rows.put({ id });
      await store.commit();
      rows.put({ id: 'b', n: 1 }); // in place
      rows.delete('a');
      rows.put({ id: 'a', n: 2 }); // re-inserted: now last
      rows.put({ id: 'e' });
      rows.put({ id: 'c', n: 3 }); // in place, changed after the insertions
      await store.commit();
      const order = ['b', 'c', 'd', 'a', 'e'];
      expect(rows.values().map((r) => r.id)).toEqual(order);
      if (!engine.durable) return store.close();
      const again = await reopen(options, store);
      expect(again.collection<Row>('queue').values()).toEqual([
        { id: 'b', n: 1 },
        { id: 'c', n: 3 },
        { id: 'd' },
        { id: 'a', n: 2 },
        { id: 'e' },
      ]);
      await again.close();
    });

    it('counts changes, so a request that made none has nothing to wait for', async () => {
      const store = await openStore(await engine.fresh());
      const before = store.changes;
      store.collection<Row>('rows').get('x');
      store.getMeta('y');
      expect(store.changes).toBe(before);
      store.collection<Row>('rows').put({ id: 'x' });
      expect(store.changes).toBe(before + 1);
      await store.close();
    });
  });
}
