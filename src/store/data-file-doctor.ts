import { copyFile, rm, stat } from 'node:fs/promises';
import { FileLock } from './file-lock.ts';
import { type LoadedJournalStore, loadJournalStore } from './journal-files.ts';
import { journalPaths } from './journal-paths.ts';
import { type LoadProblem, loadProblems, META_COLLECTION, type RecordCheck } from './load-check.ts';
import { captureSnapshot, writeSnapshot } from './snapshot-file.ts';
import { StoreError } from './store-error.ts';

export interface Examination {
  file: string;
  records: number;
  collections: number;
  problems: LoadProblem[];
}

/** A data file's content as start-up would load it (snapshot and journal, or the older format); nothing is written. */
async function readData(file: string): Promise<LoadedJournalStore> {
  try {
    await stat(file);
  } catch (err) {
    throw new StoreError(`cannot read data file ${file}: ${(err as Error).message}`);
  }
  return loadJournalStore(file);
}

/** Every problem of a data file, read without opening a store (nothing is written). */
export async function examineDataFile(file: string, check: RecordCheck): Promise<Examination> {
  const { data } = await readData(file);
  const { problems } = loadProblems(data, check);
  const collections = Object.values(data.collections);
  return {
    file,
    records: collections.reduce((n, rows) => n + rows.size, 0),
    collections: collections.length,
    problems,
  };
}

export interface Repair {
  dropped: LoadProblem[];
  /** The copy of the data file as it was, written before the repair (its journals are copied beside it, `<journal>.<time>.bak`). */
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
    const { data, seq } = await readData(file);
    const { problems } = loadProblems(data, check);
    if (problems.length === 0) return undefined;
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    const paths = journalPaths(file);
    // Every file of the store is copied as it is (the journals too), then replaced by one snapshot.
    for (const path of [paths.snapshot, paths.journal, paths.rotated])
      await copyFile(path, `${path}.${stamp}.bak`).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    for (const p of problems) {
      if (p.collection === META_COLLECTION) delete data.meta[p.id];
      else data.collections[p.collection]?.delete(p.id);
    }
    await writeSnapshot(file, captureSnapshot(seq, data));
    await rm(paths.journal, { force: true });
    await rm(paths.rotated, { force: true });
    return { dropped: problems, backup: `${file}.${stamp}.bak` };
  } finally {
    lock.release();
  }
}
