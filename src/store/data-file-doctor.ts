import { copyFile, readFile } from 'node:fs/promises';
import { DurableJsonFile } from './durable-json-file.ts';
import { FileLock } from './file-lock.ts';
import { type LoadProblem, loadProblems, META_COLLECTION, type RecordCheck } from './load-check.ts';
import { isStoreData, type StoreData } from './store-data.ts';
import { StoreError } from './store-error.ts';

export interface Examination {
  file: string;
  records: number;
  collections: number;
  problems: LoadProblem[];
}

async function readData(file: string): Promise<StoreData> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new StoreError(`cannot read data file ${file}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new StoreError(`data file ${file} is not JSON: ${(err as Error).message}`);
  }
  if (!isStoreData(data))
    throw new StoreError(`data file ${file} is not a scheme-sim store (expected {format: 1, meta, collections})`);
  return data;
}

/** Every problem of a data file, read without opening a store (nothing is written). */
export async function examineDataFile(file: string, check: RecordCheck): Promise<Examination> {
  const data = await readData(file);
  const { problems } = loadProblems(data, check);
  const collections = Object.values(data.collections);
  return {
    file,
    records: collections.reduce((n, rows) => n + Object.keys(rows).length, 0),
    collections: collections.length,
    problems,
  };
}

export interface Repair {
  dropped: LoadProblem[];
  /** The copy of the file as it was, written before the repair. */
  backup: string;
}

/**
 * Drops every record and meta key that fails the check, after copying the file to a backup beside
 * it. Holds the data file's lock meanwhile, so a running simulator's file is refused. A file with
 * no problem is left alone (no backup either).
 */
export async function repairDataFile(file: string, check: RecordCheck, now = new Date()): Promise<Repair | undefined> {
  const lock = FileLock.acquire(file);
  try {
    const data = await readData(file);
    const { problems } = loadProblems(data, check);
    if (problems.length === 0) return undefined;
    const backup = `${file}.${now.toISOString().replace(/[:.]/g, '-')}.bak`;
    await copyFile(file, backup);
    for (const p of problems) {
      if (p.collection === META_COLLECTION) delete data.meta[p.id];
      else delete data.collections[p.collection]?.[p.id];
    }
    await new DurableJsonFile<StoreData>(file).write(data);
    return { dropped: problems, backup };
  } finally {
    lock.release();
  }
}
