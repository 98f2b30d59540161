import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedData } from '../../test/support/stored-data.ts';
import type { ChangeSet, Engine } from './engine.ts';
import { openStore, StoreError } from './store.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scheme-sim-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const onDisk = storedData;

/** Wraps the real engine: counts writes and can hold each one until released. */
function gatedWrites() {
  const state = { writes: 0, hold: false, pending: [] as Array<() => void> };
  const wrap = (inner: Engine): Engine => ({
    location: inner.location,
    load: () => inner.load(),
    close: () => inner.close(),
    persist: (changes: ChangeSet) => {
      state.writes++;
      if (!state.hold) return inner.persist(changes);
      // The change set holds this commit's rows (rows are replaced, never mutated): write on release.
      return new Promise<void>((resolve, reject) =>
        state.pending.push(() => inner.persist(changes).then(resolve, reject)),
      );
    },
  });
  const release = () => state.pending.splice(0).forEach((go) => go());
  return { state, wrap, release };
}

describe('memory store', () => {
  it('holds rows and meta, reports dirty until committed, and clears', async () => {
    const store = await openStore();
    expect(store.location).toBe('memory');
    expect(store.dirty).toBe(false);
    store.collection<{ id: string; n: number }>('things').put({ id: 'a', n: 1 });
    store.setMeta('k', { v: 1 });
    expect(store.dirty).toBe(true);
    await store.commit();
    expect(store.dirty).toBe(false);
    expect(store.collection('things').get('a')).toEqual({ id: 'a', n: 1 });
    expect(store.getMeta('k')).toEqual({ v: 1 });
    store.setMeta('k', undefined);
    expect(store.getMeta('k')).toBeUndefined();
    store.clear();
    expect(store.collection('things').size).toBe(0);
    await store.close();
  });
});

describe('file store', () => {
  it('creates the file and its folder on first commit, and reads it back after a restart', async () => {
    const file = join(dir, 'nested', 'deeper', 'sim.json');
    const store = await openStore({ file });
    expect(store.location).toBe(file);
    store.collection('accounts').put({ id: 'acc-1', name: 'Holder' } as { id: string });
    store.setMeta('clock', { mode: 'frozen' });
    await store.close();
    expect((await onDisk(file)).collections.accounts!['acc-1']).toEqual({ id: 'acc-1', name: 'Holder' });

    const again = await openStore({ file });
    expect(again.collection('accounts').get('acc-1')).toEqual({ id: 'acc-1', name: 'Holder' });
    expect(again.collection('accounts').size).toBe(1);
    expect(again.getMeta('clock')).toEqual({ mode: 'frozen' });
    await again.close();
  });

  it('is durable before acknowledged: commit() resolves only after the write landed on disk', async () => {
    const file = join(dir, 'sim.json');
    const gate = gatedWrites();
    const store = await openStore({ file, wrapEngine: gate.wrap });
    gate.state.hold = true;
    store.collection('accounts').put({ id: 'durable' });
    let acknowledged = false;
    const done = store.commit().then(() => (acknowledged = true));
    await new Promise((r) => setTimeout(r, 30));
    expect(acknowledged).toBe(false);
    expect((await onDisk(file)).collections.accounts?.durable).toBeUndefined();
    gate.release();
    await done;
    expect(acknowledged).toBe(true);
    // The moment commit() resolved, the record was in the file (temp file renamed into place).
    expect((await onDisk(file)).collections.accounts!.durable).toEqual({ id: 'durable' });
    await store.close();
  });

  it('says it is writing while a write holds changes, so a clean store is not mistaken for a durable one', async () => {
    const file = join(dir, 'sim.json');
    const gate = gatedWrites();
    const store = await openStore({ file, wrapEngine: gate.wrap });
    gate.state.hold = true;
    store.collection('accounts').put({ id: 'taken-by-another-commit' });
    const other = store.commit(); // another request's commit takes this change into its write
    expect(store.dirty).toBe(false);
    expect(store.writing).toBe(true);
    let acknowledged = false;
    const mine = store.commit().then(() => (acknowledged = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(acknowledged).toBe(false);
    gate.release();
    await Promise.all([other, mine]);
    expect((await onDisk(file)).collections.accounts!['taken-by-another-commit']).toEqual({
      id: 'taken-by-another-commit',
    });
    expect(store.writing).toBe(false);
    await store.close();
  });

  it('group-commits: many concurrent commits share a few writes and all see their change on disk', async () => {
    const file = join(dir, 'sim.json');
    const gate = gatedWrites();
    const store = await openStore({ file, wrapEngine: gate.wrap });
    gate.state.hold = true;
    const rows = store.collection('rows');
    const commits: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) {
      rows.put({ id: `r${i}` });
      commits.push(store.commit());
    }
    // The first write is in flight; the 199 that arrived meanwhile wait for one more write.
    expect(gate.state.writes).toBe(1);
    gate.release();
    // The second write starts once the first is on disk; wait for it rather than for a fixed time
    // (a busy machine may take longer than any fixed wait).
    while (gate.state.pending.length === 0) await new Promise((r) => setTimeout(r, 5));
    gate.release();
    await Promise.all(commits);
    expect(gate.state.writes).toBe(2);
    expect(Object.keys((await onDisk(file)).collections.rows!)).toHaveLength(200);
    // Nothing changed since: a commit costs no write.
    await store.commit();
    expect(gate.state.writes).toBe(2);
    await store.close();
  });

  it('a commit that arrives during a write is not acknowledged by that older write', async () => {
    const file = join(dir, 'sim.json');
    const gate = gatedWrites();
    const store = await openStore({ file, wrapEngine: gate.wrap });
    gate.state.hold = true;
    store.collection('rows').put({ id: 'first' });
    const first = store.commit();
    store.collection('rows').put({ id: 'second' });
    let secondDone = false;
    const second = store.commit().then(() => (secondDone = true));
    gate.release();
    await first;
    await new Promise((r) => setTimeout(r, 20));
    expect(secondDone).toBe(false);
    expect((await onDisk(file)).collections.rows!.second).toBeUndefined();
    while (gate.state.pending.length === 0) await new Promise((r) => setTimeout(r, 5));
    gate.release();
    await second;
    expect((await onDisk(file)).collections.rows!.second).toEqual({ id: 'second' });
    await store.close();
  });

  it('a failed write rejects the commit naming the file and keeps the change for the next commit', async () => {
    const file = join(dir, 'sim.json');
    let fail = true;
    const store = await openStore({
      file,
      wrapEngine: (inner) => ({
        location: inner.location,
        load: () => inner.load(),
        close: () => inner.close(),
        persist: (changes) => (fail ? Promise.reject(new Error('disk full')) : inner.persist(changes)),
      }),
    });
    store.collection('rows').put({ id: 'kept' });
    await expect(store.commit()).rejects.toThrow(new StoreError(`cannot write data file ${file}: disk full`));
    expect(store.dirty).toBe(true);
    fail = false;
    await store.commit();
    expect((await onDisk(file)).collections.rows!.kept).toEqual({ id: 'kept' });
    await store.close();
  });

  const corrupt: Array<[string, string, RegExp]> = [
    ['truncated JSON', '{"format":1,"meta":{', /sim\.json: is not a scheme-sim store: not a snapshot, and not JSON/],
    ['an empty file', '', /sim\.json: is not a scheme-sim store: not a snapshot, and not JSON/],
    ['JSON null', 'null', /sim\.json: is not a scheme-sim store/],
    ['JSON 0', '0', /sim\.json: is not a scheme-sim store/],
    ['an array', '[]', /sim\.json: is not a scheme-sim store/],
    ['another format', '{"format":2,"meta":{},"collections":{}}', /is not a scheme-sim store/],
    [
      'a snapshot without its end',
      '{"scheme-sim":"snapshot","format":2,"seq":0}\n',
      /sim\.json at line 2, byte offset 45: the snapshot is not whole/,
    ],
    [
      'a collection that is not an object',
      '{"format":1,"meta":{},"collections":{"accounts":5}}',
      /is not a scheme-sim store/,
    ],
  ];
  it.each(corrupt)(
    'refuses to start from %s, naming the file, and leaves the file alone',
    async (_label, content, message) => {
      const file = join(dir, 'sim.json');
      writeFileSync(file, content);
      await expect(openStore({ file })).rejects.toThrow(message);
      await expect(openStore({ file })).rejects.toBeInstanceOf(StoreError);
      expect(readFileSync(file, 'utf8')).toBe(content);
    },
  );

  it('refuses a folder where the data file goes, naming it', async () => {
    const file = join(dir, 'sim.json');
    mkdirSync(file);
    await expect(openStore({ file })).rejects.toThrow(`${file}: is a directory, not a file; nothing was changed`);
  });
});

describe('the data file lock', () => {
  it('refuses a second open of the same file, naming it, until the first is closed', async () => {
    const file = join(dir, 'sim.json');
    const first = await openStore({ file });
    expect(readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(process.pid));
    await expect(openStore({ file })).rejects.toThrow(
      `data file ${file} is in use by another simulator (pid ${process.pid})`,
    );
    await expect(openStore({ file })).rejects.toBeInstanceOf(StoreError);
    first.collection('accounts').put({ id: 'a' });
    await first.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
    const second = await openStore({ file });
    expect(second.collection('accounts').get('a')).toEqual({ id: 'a' });
    await second.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('takes over a stale lock whose process is gone, with a warning', async () => {
    const file = join(dir, 'sim.json');
    // A pid above the kernel's pid_max (4194304 at most) names no process.
    writeFileSync(`${file}.lock`, '999999999\n');
    const warnings: string[] = [];
    const store = await openStore({ file, warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([
      `scheme-sim: taking over the stale lock ${file}.lock of pid 999999999, which is no longer running`,
    ]);
    expect(readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(process.pid));
    await store.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('writes the pid before the lock appears: no moment shows a lock without it', async () => {
    const file = join(dir, 'sim.json');
    const store = await openStore({ file });
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    expect(readdirSync(dir).sort()).toEqual(['sim.json', 'sim.json.journal', 'sim.json.lock']);
    await store.close();
  });

  it('refuses a lock that names no pid, unless told to take it over (--force-unlock)', async () => {
    const file = join(dir, 'sim.json');
    writeFileSync(`${file}.lock`, 'not a pid\n');
    await expect(openStore({ file })).rejects.toThrow(`${file}.lock: names no pid (it holds "not a pid\\n")`);
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe('not a pid\n');
    const warnings: string[] = [];
    const store = await openStore({ file, forceUnlock: true, warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([`scheme-sim: taking over the lock ${file}.lock (it names no pid), as asked`]);
    await store.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('releases the lock when the file cannot be opened', async () => {
    const file = join(dir, 'sim.json');
    writeFileSync(file, '[]');
    await expect(openStore({ file })).rejects.toThrow('is not a scheme-sim store');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('leaves memory stores unlocked', async () => {
    const a = await openStore();
    const b = await openStore();
    await Promise.all([a.close(), b.close()]);
  });
});
