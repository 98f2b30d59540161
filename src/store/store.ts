import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BufferedStore } from './buffered-store.ts';
import type { Collection, Row } from './collection.ts';
import type { Engine } from './engine.ts';
import { FileLock } from './file-lock.ts';
import { type CompactionPolicy, JournalEngine } from './journal-engine.ts';
import { assertLoadable, type RecordCheck } from './load-check.ts';
import { MemoryEngine } from './memory-engine.ts';
import { StoreError } from './store-error.ts';

export type { StoreData } from './store-data.ts';
export { StoreError } from './store-error.ts';

/**
 * The persistence interface the domain uses. Everything is held in memory and read synchronously;
 * `commit()` makes the changes since the last commit durable through an engine (memory, the
 * journal file, PostgreSQL): the domain never sees which.
 */
export interface Store {
  collection<T extends Row>(name: string): Collection<T>;
  getMeta<T>(key: string): T | undefined;
  setMeta(key: string, value: unknown): void;
  /** True when there are changes not yet handed to a write. */
  readonly dirty: boolean;
  /** True while a write is in flight or queued (it may hold changes someone still has to wait for). */
  readonly writing: boolean;
  /**
   * How many changes were made since the store opened: a request that made none (its count is the
   * same after it) has nothing to wait for, so reads never wait on another request's write.
   */
  readonly changes: number;
  /**
   * Resolves once every change made before the call is on disk. Calls that arrive while a write is
   * in flight share the next write (group commit).
   */
  commit(): Promise<void>;
  /**
   * Runs `fn` (synchronous) as one unit: if it throws, every change it made to collections and
   * meta is undone before the error goes on. Inside another unit it is a savepoint: its own
   * failure undoes its own changes, and a failure of the outer unit undoes them too.
   */
  atomically<T>(fn: () => T): T;
  /**
   * Calls `listener` after a unit's changes were undone, with the names of the collections they
   * touched: state kept beside the store (the scheduler's queue, the outbox's due heap) re-reads it.
   */
  onRollback(listener: (collections: ReadonlySet<string>) => void): void;
  /** Drops every record of every collection and all meta but the keys in `keepMeta` (simulator reset). */
  clear(options?: { keepMeta?: string[] }): void;
  /** Flushes and releases the store. */
  close(): Promise<void>;
  /** Where the data lives, for messages: a path or "memory". */
  readonly location: string;
}

export interface OpenStoreOptions {
  /** Data file path (the journal engine); with neither it nor `postgres` the store is in memory. */
  file?: string;
  /** A PostgreSQL URL (postgres://user:pass@host:port/db): the PostgreSQL engine (docs/store-postgres.md). */
  postgres?: string;
  /** Wraps the engine (tests use it to count, hold or fail writes); the wrapper must persist through it. */
  wrapEngine?: (engine: Engine) => Engine;
  /** Told of a stale lock taken over, a torn journal tail dropped, a migration; default console.warn. */
  warn?: (message: string) => void;
  /** Checks every record and meta key before the store is used; a failure opens nothing and writes nothing. */
  check?: RecordCheck;
  /** When the journal is compacted into its snapshot (tests make it small). */
  compaction?: Partial<CompactionPolicy>;
}

/** An engine that has to finish its start-up (cut a torn tail, migrate) once the loaded data passed its checks. */
interface StartingEngine extends Engine {
  opened?(): Promise<void>;
}

export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  const engine = await openEngine(options);
  try {
    const data = await engine.load();
    if (options.check) assertLoadable(engine.location, data, options.check);
    await engine.opened?.();
    return new BufferedStore(data, options.wrapEngine ? options.wrapEngine(engine) : engine);
  } catch (err) {
    await engine.close().catch(() => undefined);
    throw err;
  }
}

async function openEngine(options: OpenStoreOptions): Promise<StartingEngine> {
  if (options.postgres) {
    // Loaded only when asked for: the embedded engines do not pay for the driver.
    const { openPostgresEngine } = await import('./postgres-engine.ts');
    return openPostgresEngine(options.postgres, options.warn ? { warn: options.warn } : {});
  }
  if (!options.file) return new MemoryEngine();
  const file = options.file;
  // A missing file is a new store; its folder is created so the lock and the first write can land.
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (err) {
    throw new StoreError(`cannot create the folder of data file ${file}: ${(err as Error).message}`);
  }
  const lock = FileLock.acquire(file, options.warn);
  return new JournalEngine(file, lock, {
    ...(options.warn ? { warn: options.warn } : {}),
    ...(options.compaction ? { compaction: options.compaction } : {}),
  });
}
