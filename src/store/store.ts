import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BufferedStore } from './buffered-store.ts';
import type { Engine } from './engine.ts';
import { FileLock } from './file-lock.ts';
import type { SecretSpec } from './issued-secrets.ts';
import { type CompactionPolicy, JournalEngine } from './journal-engine.ts';
import { wrongKindDamage } from './journal-paths.ts';
import { assertLoadable, type RecordCheck } from './load-check.ts';
import { MemoryEngine } from './memory-engine.ts';
import type { PostgresPool, PostgresPoolOptions } from './postgres-pool.ts';
import { damageError } from './store-damage.ts';
import { StoreError } from './store-error.ts';
import type { Store } from './store-interface.ts';

export type { PostgresPool, PostgresPoolOptions } from './postgres-pool.ts';
export { sandboxSchemaName } from './postgres-tables.ts';
export type { StoreData } from './store-data.ts';
export { StoreError } from './store-error.ts';
export type { Store } from './store-interface.ts';

export interface OpenStoreOptions {
  /** Data file path (the journal engine); with neither it nor `postgres` the store is in memory. */
  file?: string;
  /** A PostgreSQL URL (postgres://user:pass@host:port/db): the PostgreSQL engine (docs/store-postgres.md). */
  postgres?: string;
  /**
   * A sandbox's store on PostgreSQL: the schema its tables live in (`sandboxSchemaName(id)`), in
   * the database of `postgresPool`, whose connections it shares. It takes no database lock (the
   * process's default store holds it); with it, give neither `file` nor `postgres`.
   */
  postgresSchema?: string;
  /** The connections sandbox stores share (`openPostgresPool`); its opener closes it after them. */
  postgresPool?: PostgresPool;
  /** Wraps the engine (tests use it to count, hold or fail writes); the wrapper must persist through it. */
  wrapEngine?: (engine: Engine) => Engine;
  /** Told of a stale lock taken over, a torn journal tail dropped, a migration; default console.warn. */
  warn?: (message: string) => void;
  /** Checks every record and meta key before the store is used; a failure opens nothing and writes nothing. */
  check?: RecordCheck;
  /** The meta keys that hold secrets: one the store issued but no longer holds stops the open (issued-secrets.ts). */
  secrets?: readonly SecretSpec[];
  /** Take over the data file's lock whatever it names (`--force-unlock`). */
  forceUnlock?: boolean;
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
    assertLoadable(engine.location, data, options.check, options.secrets);
    await engine.opened?.();
    return new BufferedStore(data, options.wrapEngine ? options.wrapEngine(engine) : engine);
  } catch (err) {
    await engine.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Connections for the sandbox stores on the PostgreSQL database at `url` (docs/store-postgres.md):
 * pass it as `postgresPool` with each sandbox's `postgresSchema`; it also lists and drops their
 * schemas. Fails (StoreError) when it cannot connect; close it after the stores that use it.
 */
export async function openPostgresPool(url: string, options: PostgresPoolOptions = {}): Promise<PostgresPool> {
  // Loaded only when asked for, like the engine: the embedded engines do not pay for the driver.
  const { openPostgresPool: open } = await import('./postgres-pool.ts');
  return open(url, options);
}

async function openEngine(options: OpenStoreOptions): Promise<StartingEngine> {
  if (options.postgresSchema !== undefined || options.postgresPool) {
    if (options.postgresSchema === undefined || !options.postgresPool)
      throw new StoreError('a sandbox store on PostgreSQL needs both postgresSchema and postgresPool');
    if (options.file || options.postgres)
      throw new StoreError('a sandbox store on PostgreSQL takes its database from postgresPool, not file or postgres');
    const { openPostgresSchemaEngine } = await import('./postgres-schema-engine.ts');
    return openPostgresSchemaEngine(options.postgresPool, options.postgresSchema);
  }
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
  // A path of the wrong kind (a directory where the journal goes) is named before anything is touched.
  const wrongKind = (await wrongKindDamage(file))[0];
  if (wrongKind) throw damageError(file, wrongKind);
  const lock = FileLock.acquire(file, {
    ...(options.warn ? { warn: options.warn } : {}),
    ...(options.forceUnlock ? { force: 'any' as const } : {}),
  });
  return new JournalEngine(file, lock, {
    ...(options.warn ? { warn: options.warn } : {}),
    ...(options.compaction ? { compaction: options.compaction } : {}),
  });
}
