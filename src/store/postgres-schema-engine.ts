// Sandboxes on a PostgreSQL server each need a store of their own without a connection each: the
// engine that keeps a sandbox's tables in its own schema over a shared pool.
import type { ChangeSet, Engine } from './engine.ts';
import type { LeaseFence } from './postgres-leases.ts';
import type { PostgresPool } from './postgres-pool.ts';
import { type PersistPlan, readCatalogue, readStore, serialise, type TableNames, writePlan } from './postgres-sql.ts';
import { sandboxLayout, sandboxLockKey, type TableLayout } from './postgres-tables.ts';
import type { StoreData } from './store-data.ts';
import { LeaseLostError, StoreError } from './store-error.ts';

/**
 * Opens a sandbox's store kept in `schema` of the pool's database: creates the schema and the
 * tables it lacks. Its load and each commit are one transaction on a connection of the pool.
 */
export async function openPostgresSchemaEngine(
  pool: PostgresPool,
  schema: string,
  fence?: LeaseFence,
): Promise<Engine> {
  const layout = sandboxLayout(schema);
  const release = pool.claim(schema);
  const engine = new PostgresSchemaEngine(pool, schema, layout, release, fence);
  try {
    await engine.open();
  } catch (err) {
    release();
    throw err;
  }
  return engine;
}

/**
 * The same tables and SQL as the default engine, qualified by the schema. It holds no connection
 * and no session lock between calls: open, each commit (and a drop) take the schema's
 * transaction-level advisory lock, so two processes never interleave writes to one schema.
 */
class PostgresSchemaEngine implements Engine {
  readonly location: string;
  /** A commit is a round trip to the server, which parses and writes on its own core (decision 044). */
  readonly commitsOverlap = true;
  readonly #pool: PostgresPool;
  readonly #layout: TableLayout;
  readonly #lock: string;
  readonly #release: () => void;
  /** A node's lease of this sandbox, proved by each commit (over the pool's own fence). */
  readonly #fence: LeaseFence | undefined;
  /** Collection name → its table, for every collection the schema has a table for. */
  #tables: TableNames = new Map();
  #writing: Promise<unknown> = Promise.resolve();
  #closing: Promise<void> | null = null;

  constructor(pool: PostgresPool, schema: string, layout: TableLayout, release: () => void, fence?: LeaseFence) {
    this.#fence = fence;
    this.#pool = pool;
    this.location = `${pool.location} (schema ${schema})`;
    this.#layout = layout;
    this.#lock = sandboxLockKey(schema);
    this.#release = release;
  }

  async open(): Promise<void> {
    this.#tables = await this.#pool.transaction(
      { doing: 'cannot prepare the tables of', location: this.location, lock: this.#lock },
      async (client) => {
        for (const sql of this.#layout.prepare) await client.query(sql);
        return readCatalogue(client, this.#layout);
      },
    );
  }

  load(): Promise<StoreData> {
    if (this.#closing) return Promise.reject(this.#closed());
    return this.#pool.transaction(
      { doing: 'cannot load the store from', location: this.location, readOnly: true },
      (client) => readStore(client, this.#layout, this.#tables),
    );
  }

  async persist(changes: ChangeSet): Promise<void> {
    if (this.#closing) throw this.#closed();
    let plan: PersistPlan;
    try {
      plan = serialise(changes);
    } catch (err) {
      throw new StoreError(`cannot write the store to database ${this.location}: ${(err as Error).message}`);
    }
    const writing = this.#pool.transaction(
      {
        doing: 'cannot write the store to',
        location: this.location,
        lock: this.#lock,
        ...(this.#fence ? { fence: this.#fence } : {}),
      },
      (client) => writePlan(client, this.#layout, this.#tables, plan),
    );
    this.#writing = writing.catch(() => undefined);
    // Only a committed table is known: a rolled-back CREATE TABLE left nothing behind.
    for (const [name, table] of await writing) this.#tables.set(name, table);
  }

  /** Waits for a commit under way; the schema can then be opened again or dropped. */
  close(): Promise<void> {
    this.#closing ??= this.#writing.then(() => this.#release());
    return this.#closing;
  }

  #closed(): StoreError {
    if (this.#fence) return new LeaseLostError(`the store at ${this.location} is closed: ${this.#fence.closedReason}`);
    return new StoreError(`the store at ${this.location} is closed`);
  }
}
