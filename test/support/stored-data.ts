import { loadJournalStore } from '../../src/store/journal-files.ts';
import type { StoreData } from '../../src/store/store-data.ts';

/** What a data file holds on disk (snapshot and journal replayed), read without opening or locking it. */
export async function storedData(file: string): Promise<StoreData> {
  return (await loadJournalStore(file)).data;
}
