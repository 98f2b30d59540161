// The connections the sandbox stores of one process share (docs/store-postgres.md). The runtime
// opens one pool per database, hands it to every sandbox store it opens and closes it after them.

import pg from 'pg';
import type { LeaseFence } from './postgres-leases.ts';
import {
  assertSandboxSchemaName,
  describeDatabaseUrl,
  isSandboxSchemaName,
  passwordOf,
  quoteIdentifier,
  SANDBOX_SCHEMA_PREFIX,
  sandboxLockKey,
} from './postgres-tables.ts';
import { StoreError } from './store-error.ts';

type PoolClient = pg.PoolClient;

/** A new connection that cannot be made in this time fails its operation instead of hanging it. */
const CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX = 8;

export interface PostgresPoolOptions {
  /** Connections at most (1..100, default 8); further operations wait their turn, however long. */
  max?: number;
  /** Told of an idle connection lost (the next operation opens another); default console.warn. */
  warn?: (message: string) => void;
  /** A node of a shared double: every transaction that writes proves the node's lease first. */
  fence?: LeaseFence;
}

interface TransactionOptions {
  /** What failed, for the message: "cannot write the store to" → "… database <location>: why". */
  doing: string;
  location: string;
  /** One snapshot that writes nothing (a load). */
  readOnly?: boolean;
  /** Takes this schema's transaction-level advisory lock first (sandboxLockKey). */
  lock?: string;
  /** The lease this write proves, over the pool's own (a node's sandbox: its own lease, decision 033). */
  fence?: LeaseFence;
}

/** Opens a pool on the database at `url` and checks it can connect; the caller closes it. */
export async function openPostgresPool(url: string, options: PostgresPoolOptions = {}): Promise<PostgresPool> {
  const pool = new PostgresPool(url, options);
  try {
    await pool.transaction({ doing: 'cannot connect to', location: pool.location, readOnly: true }, () =>
      Promise.resolve(),
    );
  } catch (err) {
    await pool.close();
    throw err;
  }
  return pool;
}

/**
 * A `pg.Pool` of at most `max` connections, behind a first-come queue of its own: pg's pool would
 * fail a wait for a free connection after its connect timeout, and a sandbox's commit must wait
 * behind another's two-year advance rather than fail. Each operation is one transaction on one
 * checked-out connection, returned at once. Takes no database advisory lock: the process's
 * default store holds it (one simulator per database).
 */
export class PostgresPool {
  /** The database URL without its password, for messages. */
  readonly location: string;
  readonly max: number;
  readonly #url: string;
  readonly #pool: pg.Pool;
  readonly #fence: LeaseFence | undefined;
  #free: number;
  readonly #waiting: Array<{ resolve: () => void; reject: (err: Error) => void }> = [];
  /** The schemas a store of this pool has open: one store each, and none dropped while open. */
  readonly #open = new Set<string>();
  #closing: Promise<void> | null = null;

  constructor(url: string, options: PostgresPoolOptions = {}) {
    this.location = describeDatabaseUrl(url);
    const max = options.max ?? DEFAULT_MAX;
    if (!Number.isInteger(max) || max < 1 || max > 100)
      throw new StoreError(`a PostgreSQL pool holds 1 to 100 connections (max ${max})`);
    this.#url = url;
    this.#fence = options.fence;
    this.max = this.#free = max;
    this.#pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    const warn = options.warn ?? ((m) => console.warn(m));
    // Without a listener an idle connection's 'error' event would crash the process.
    this.#pool.on('error', (err) => warn(`lost an idle connection to ${this.location}: ${this.#scrub(err.message)}`));
  }

  /** The sandbox schemas in the database (scheme_sim_sbx_…), sorted, whether a store has them open or not. */
  async listSandboxSchemas(): Promise<string[]> {
    const like = `${SANDBOX_SCHEMA_PREFIX.replaceAll('_', '\\_')}%`;
    const rows = await this.transaction(
      { doing: 'cannot list the sandbox schemas of', location: this.location, readOnly: true },
      async (client) =>
        (await client.query('SELECT nspname FROM pg_namespace WHERE nspname LIKE $1 ORDER BY nspname', [like])).rows,
    );
    return rows.map((row: { nspname: string }) => row.nspname).filter(isSandboxSchemaName);
  }

  /**
   * Drops a sandbox schema and everything in it (DROP SCHEMA … CASCADE: its tables and their
   * storage go at commit). Refused while a store of this pool has it open; waits for a commit of
   * another process to it to finish. Resolves whether the schema was there.
   */
  async dropSandboxSchema(schema: string): Promise<boolean> {
    assertSandboxSchemaName(schema);
    const release = this.claim(schema);
    try {
      return await this.transaction(
        { doing: `cannot drop schema ${schema} of`, location: this.location, lock: sandboxLockKey(schema) },
        async (client) => {
          const found = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
          await client.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
          return found.rowCount === 1;
        },
      );
    } finally {
      release();
    }
  }

  /** Waits for the operations under way, then ends every connection; later operations fail. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const waiter of this.#waiting.splice(0)) waiter.reject(this.#closed());
      await this.#pool.end();
    })();
    return this.#closing;
  }

  /** Marks `schema` open for a store (or a drop); the returned function marks it closed again. */
  claim(schema: string): () => void {
    if (this.#open.has(schema))
      throw new StoreError(`schema ${schema} of database ${this.location} is already open in this process`);
    this.#open.add(schema);
    return () => this.#open.delete(schema);
  }

  /**
   * Runs `work` in one transaction on a checked-out connection: COMMIT when it resolves, ROLLBACK
   * (and a StoreError saying what failed) when anything rejects. A connection whose ROLLBACK failed
   * is not given out again.
   */
  async transaction<T>(options: TransactionOptions, work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#checkout(options);
    let lost = false;
    // A checked-out connection that dies emits 'error' too, which would crash the process unheard.
    const onError = () => {
      lost = true;
    };
    client.on('error', onError);
    try {
      await client.query(options.readOnly ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN');
      if (!options.readOnly) await (options.fence ?? this.#fence)?.check(client);
      if (options.lock) await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [options.lock]);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      // A dead connection has rolled back on the server already; ROLLBACK then fails, harmlessly.
      if (!lost)
        lost = await client.query('ROLLBACK').then(
          () => false,
          () => true,
        );
      throw this.#error(options, err);
    } finally {
      client.off('error', onError);
      client.release(lost);
      this.#leave();
    }
  }

  async #checkout(options: TransactionOptions): Promise<PoolClient> {
    if (this.#closing) throw this.#closed();
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve, reject) => this.#waiting.push({ resolve, reject }));
    try {
      return await this.#pool.connect();
    } catch (err) {
      this.#leave();
      throw this.#error({ ...options, doing: 'cannot connect to' }, err);
    }
  }

  /** A connection is back: the next waiter's turn, or one more free. */
  #leave(): void {
    const next = this.#waiting.shift();
    if (next) next.resolve();
    else this.#free++;
  }

  #closed(): StoreError {
    return new StoreError(`the PostgreSQL pool of ${this.location} is closed`);
  }

  #error(options: TransactionOptions, err: unknown): StoreError {
    if (err instanceof StoreError) return err;
    const message = (err as Error)?.message ?? String(err);
    return new StoreError(`${options.doing} database ${options.location}: ${this.#scrub(message)}`);
  }

  #scrub(message: string): string {
    const password = passwordOf(this.#url);
    return password ? message.replaceAll(password, '***') : message;
  }
}
