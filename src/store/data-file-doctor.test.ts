import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedData } from '../../test/support/stored-data.ts';
import { examineDataFile, repairDataFile } from './data-file-doctor.ts';
import { FileLock } from './file-lock.ts';
import { META_COLLECTION } from './load-check.ts';
import { openStore } from './store.ts';

const check = (collection: string, _id: string, record: unknown) => {
  if (collection === META_COLLECTION) return record === 'bad' ? 'must not be bad' : undefined;
  return typeof record === 'object' ? undefined : 'must be an object';
};
const data = {
  format: 1,
  meta: { keep: 1, drop: 'bad' },
  collections: { rows: { a: { id: 'a' }, b: 5 }, more: { c: { id: 'c' } } },
};

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'doctor-'));
  file = join(dir, 'data.json');
  writeFileSync(file, JSON.stringify(data));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('examineDataFile', () => {
  it('lists every problem and writes nothing', async () => {
    const before = readFileSync(file, 'utf8');
    const exam = await examineDataFile(file, check);
    expect(exam).toMatchObject({ records: 3, collections: 2 });
    expect(exam.problems).toEqual([
      { collection: META_COLLECTION, id: 'drop', rule: 'must not be bad' },
      { collection: 'rows', id: 'b', rule: 'must be an object' },
    ]);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('names a file that is not JSON, or not a store, and a path with no store', async () => {
    writeFileSync(file, '{"format":1,');
    expect((await examineDataFile(file, check)).damage).toEqual([
      expect.objectContaining({ kind: 'not-a-store', file, fixable: false }),
    ]);
    writeFileSync(file, '[]');
    expect((await examineDataFile(file, check)).damage).toEqual([
      expect.objectContaining({
        kind: 'not-a-store',
        file,
        what: expect.stringContaining('is not a scheme-sim store'),
      }),
    ]);
    await expect(examineDataFile(join(dir, 'missing.json'), check)).rejects.toThrow('cannot read data file');
  });
});

describe('repairDataFile', () => {
  it('backs the file up, then drops exactly the offending records and meta keys', async () => {
    const before = readFileSync(file, 'utf8');
    const repair = await repairDataFile(file, check, { now: new Date('2026-11-24T01:02:03.004Z') });
    expect(repair?.dropped).toHaveLength(2);
    expect(repair?.backup).toBe(`${file}.2026-11-24T01-02-03-004Z.bak`);
    expect(readFileSync(repair!.backup!, 'utf8')).toBe(before);
    const after = await storedData(file);
    expect(after).toEqual({
      format: 1,
      meta: { keep: 1 },
      collections: { rows: { a: { id: 'a' } }, more: { c: { id: 'c' } } },
    });
    expect((await examineDataFile(file, check)).problems).toEqual([]);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('repairs a journal store: the bad key goes, its snapshot and journal are backed up first', async () => {
    const jfile = join(dir, 'journal.json');
    const store = await openStore({ file: jfile });
    store.collection('rows').put({ id: 'a' });
    store.setMeta('keep', 1);
    await store.commit();
    store.setMeta('broken', 'bad');
    await store.close();
    const journal = readFileSync(`${jfile}.journal`, 'utf8');
    const repair = await repairDataFile(jfile, check, { now: new Date('2026-11-24T01:02:03.004Z') });
    expect(repair?.dropped).toEqual([{ collection: META_COLLECTION, id: 'broken', rule: 'must not be bad' }]);
    expect(readFileSync(`${jfile}.journal.2026-11-24T01-02-03-004Z.bak`, 'utf8')).toBe(journal);
    expect(readFileSync(`${jfile}.journal`, 'utf8')).toBe(''); // a new, empty journal beside the new snapshot
    expect(await storedData(jfile)).toEqual({
      format: 1,
      meta: { keep: 1 },
      collections: { rows: { a: { id: 'a' } } },
    });
  });

  it('leaves a sound file alone, with no backup', async () => {
    writeFileSync(file, JSON.stringify({ format: 1, meta: {}, collections: { rows: { a: { id: 'a' } } } }));
    expect(await repairDataFile(file, check)).toBeUndefined();
  });

  it('refuses a file a running simulator holds', async () => {
    const lock = FileLock.acquire(file);
    try {
      await expect(repairDataFile(file, check)).rejects.toThrow('is in use by another simulator');
      expect(readFileSync(file, 'utf8')).toBe(JSON.stringify(data));
    } finally {
      lock.release();
    }
  });
});
