// Store tests assert on what reached the disk, not on what the store holds in memory: a data file
// read back as plain objects.
import { loadJournalStore } from '../../src/store/journal-files.ts';
import { type StoreDocument, toDocument } from '../../src/store/store-data.ts';

/**
 * What a data file holds on disk (snapshot and journal replayed), read without opening or locking
 * it, as plain objects (`collections.accounts[id]`) for assertions.
 */
export async function storedData(file: string): Promise<StoreDocument> {
  return toDocument((await loadJournalStore(file)).data);
}
