// Several paths replace a journal store's files at once (a new store, a migration, `doctor --fix`):
// the one order of writes that a crash at any moment leaves readable.
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { journalPaths } from './journal-paths.ts';
import { captureSnapshot, writeSnapshot } from './snapshot-file.ts';
import type { StoreData } from './store-data.ts';
import { syncDirectory } from './sync-directory.ts';

/**
 * Replaces a journal store's files by one snapshot of `data` at `seq` and an empty journal (a new
 * store, a migration, an interrupted compaction, `doctor --fix`). The order keeps every moment a
 * state start-up reads as it should: the empty journal is made first as `.journal.new`, the
 * snapshot is renamed into place, then `.journal.new` is renamed over the journal and the rotated
 * journal goes. So a snapshot always has a journal beside it (or `.journal.new`), and one without
 * is a journal that went missing (docs/store.md, "Damaged stores").
 */
export async function rewriteStore(file: string, seq: number, data: StoreData): Promise<void> {
  const paths = journalPaths(file);
  const folder = dirname(file);
  const starting = await open(paths.starting, 'w', 0o600);
  try {
    await starting.sync();
  } finally {
    await starting.close();
  }
  await syncDirectory(folder);
  await writeSnapshot(file, captureSnapshot(seq, data));
  await rename(paths.starting, paths.journal);
  await unlink(paths.rotated).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
  await syncDirectory(folder);
}
