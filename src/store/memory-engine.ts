// Tests and `--memory` need a store that writes nothing anywhere: the engine that keeps no data
// beyond the process.
import type { Engine } from './engine.ts';
import { emptyStoreData, type StoreData } from './store-data.ts';

/** Keeps nothing beyond the process: `--memory`, and tests. Every commit is at once "durable". */
export class MemoryEngine implements Engine {
  readonly location = 'memory';

  async load(): Promise<StoreData> {
    return emptyStoreData();
  }

  async persist(): Promise<void> {}

  async close(): Promise<void> {}
}
