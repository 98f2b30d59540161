// Several processes can share one double when its store is a PostgreSQL database (decision 015):
// the engine that keeps the store's tables there, one simulator per database.
import pg from 'pg';
import type { ChangeSet, Engine } from './engine.ts';
import type { LeaseFence } from './postgres-leases.ts';
import {
  type PersistPlan,
  planStatements,
  readCatalogue,
  readStore,
  serialise,
  type TableNames,
} from './postgres-sql.ts';
import { ADVISORY_LOCK_KEY, DEFAULT_LAYOUT, describeDatabaseUrl, passwordOf } from './postgres-tables.ts';
import type { StoreData } from './store-data.ts';
import { LeaseLostError, StoreError } from './store-error.ts';

const { Client } = pg;
type PgClient = InstanceType<typeof Client>;

/** An unreachable host fails the open instead of hanging it. */
const CONNECT_TIMEOUT_MS = 10_000;

export interface PostgresEngineOptions {
  /** Told of connection trouble between calls (a dropped connection); default console.warn. */
  warn?: (message: string) => void;
  /**
   * A node of a shared double (docs/shared-double.md): no database lock is taken (the node holds
   * the shared one), and every commit proves the node's lease first, in its own transaction.
   */
  fence?: LeaseFence;
}

/**
 * Opens the store kept in the PostgreSQL database at `url`: connects, takes the database's
 * scheme-sim advisory lock (one simulator per database) and creates the tables it lacks.
 */
export async function openPostgresEngine(url: string, options: PostgresEngineOptions = {}): Promise<Engine> {
  const location = describeDatabaseUrl(url);
  const engine = new PostgresEngine(url, location, options.warn ?? ((m) => console.warn(m)), options.fence);
  await engine.open();
  return engine;
}

class PostgresEngine implements Engine {
  readonly location: string;
  /** A commit is a round trip to the server, which parses and writes on its own core (decision 044). */
  readonly commitsOverlap = true;
  readonly #url: string;
  readonly #warn: (message: string) => void;
  readonly #fence: LeaseFence | undefined;
  /** Collection name → its table, for every collection the database has a table for. */
  #tables: TableNames = new Map();
  #client: PgClient | null = null;
  /** Set when the connection died: the next persist reconnects (and re-takes the lock) first. */
  #broken = false;
  #closing: Promise<void> | null = null;

  constructor(url: string, location: string, warn: (message: string) => void, fence: LeaseFence | undefined) {
    this.#url = url;
    this.location = location;
    this.#warn = warn;
    this.#fence = fence;
  }

  async open(): Promise<void> {
    this.#client = await this.#connect();
    try {
      for (const sql of DEFAULT_LAYOUT.prepare) await this.#client.query(sql);
      this.#tables = await readCatalogue(this.#client, DEFAULT_LAYOUT);
    } catch (err) {
      await this.#endClient();
      throw this.#error('cannot prepare the tables of', err);
    }
  }

  async load(): Promise<StoreData> {
    const client = this.#usable();
    let data: StoreData;
    try {
      // One snapshot: meta and every collection as of the same instant.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      data = await readStore(client, DEFAULT_LAYOUT, this.#tables);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw this.#error('cannot load the store from', err);
    }
    return data;
  }

  async persist(changes: ChangeSet): Promise<void> {
    if (this.#closing) throw this.#closed();
    let plan: PersistPlan;
    try {
      plan = serialise(changes);
    } catch (err) {
      throw new StoreError(`cannot write the store to database ${this.location}: ${(err as Error).message}`);
    }
    if (this.#broken) await this.#reconnect();
    const client = this.#usable();
    const { statements, created } = planStatements(DEFAULT_LAYOUT, this.#tables, plan);
    try {
      // The connection pipelines: statements sent together cost one round trip, not one each.
      // A fence is proved before anything is written (its check reads a row, which a pipelined
      // COMMIT would not wait for); without one, the whole commit is a single round trip.
      const begun = client.query('BEGIN');
      if (this.#fence) {
        await settledInOrder([begun, this.#fence.check(client)]);
        await settledInOrder([...statements.map(({ text, values }) => client.query(text, values)), commit(client)]);
      } else
        await settledInOrder([
          begun,
          ...statements.map(({ text, values }) => client.query(text, values)),
          commit(client),
        ]);
    } catch (err) {
      // A dead connection has rolled back on the server already; ROLLBACK then fails, harmlessly.
      await client.query('ROLLBACK').catch(() => undefined);
      throw this.#error('cannot write the store to', err);
    }
    // Only a committed table is known: a rolled-back CREATE TABLE left nothing behind.
    for (const [name, table] of created) this.#tables.set(name, table);
  }

  close(): Promise<void> {
    this.#closing ??= this.#release();
    return this.#closing;
  }

  async #release(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    if (!this.#broken && !this.#fence) {
      // Ending the session releases the lock too; unlocking first just says so explicitly.
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [ADVISORY_LOCK_KEY]).catch(() => undefined);
    }
    await this.#endClient();
  }

  /** A connected client holding the advisory lock, or a StoreError (the client is ended). */
  async #connect(): Promise<PgClient> {
    const client = new Client({
      connectionString: this.#url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      pipeline: true,
    });
    // Without a listener a dropped connection's 'error' event would crash the process.
    client.on('error', (err) => {
      if (this.#client !== client || this.#closing) return;
      this.#broken = true;
      this.#warn(`lost the connection to ${this.location}: ${this.#scrub(err.message)}; the next write reconnects`);
    });
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => undefined);
      throw this.#error('cannot connect to', err);
    }
    if (this.#fence) return client;
    let locked: boolean;
    try {
      const result = await client.query('SELECT pg_try_advisory_lock($1::bigint) AS locked', [ADVISORY_LOCK_KEY]);
      locked = result.rows[0].locked === true;
    } catch (err) {
      await client.end().catch(() => undefined);
      throw this.#error('cannot lock', err);
    }
    if (!locked) {
      await client.end().catch(() => undefined);
      throw new StoreError(
        `database ${this.location} is in use by another scheme-sim process (advisory lock held); one simulator per database`,
      );
    }
    return client;
  }

  async #reconnect(): Promise<void> {
    await this.#endClient();
    this.#client = await this.#connect();
    this.#broken = false;
    this.#warn(`reconnected to ${this.location}`);
  }

  #closed(): StoreError {
    // A node's world is closed when its lease is lost or given up: a late write says so.
    if (this.#fence) return new LeaseLostError(`the store at ${this.location} is closed: ${this.#fence.closedReason}`);
    return new StoreError(`the store at ${this.location} is closed`);
  }

  #usable(): PgClient {
    if (!this.#client || this.#closing) throw this.#closed();
    return this.#client;
  }

  async #endClient(): Promise<void> {
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }

  #error(doing: string, err: unknown): StoreError {
    if (err instanceof StoreError) return err;
    const message = (err as Error)?.message ?? String(err);
    // A failed statement leaves the session usable; anything else (the connection dropped, the
    // server went away) is recovered by reconnecting before the next write.
    const severity = (err as { severity?: string })?.severity;
    if (!severity || severity === 'FATAL' || severity === 'PANIC') this.#broken = true;
    return new StoreError(`${doing} database ${this.location}: ${this.#scrub(message)}`);
  }

  #scrub(message: string): string {
    const password = passwordOf(this.#url);
    return password ? message.replaceAll(password, '***') : message;
  }
}

/**
 * Waits for every one of `sent` (queries pipelined on one connection, answered in order) and
 * rejects with the first failure. After a failed statement the server refuses the rest of the
 * transaction, and its COMMIT only rolls back: every rejection is taken, none left unhandled.
 */
async function settledInOrder(sent: Array<Promise<unknown>>): Promise<void> {
  const results = await Promise.allSettled(sent);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** COMMIT, refused when the server answers that it rolled back instead (a failed transaction). */
async function commit(client: PgClient): Promise<void> {
  const result = await client.query('COMMIT');
  if (result.command !== 'COMMIT') throw new Error(`the transaction was rolled back (${result.command})`);
}
