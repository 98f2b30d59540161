import pg from 'pg';
import type { Row } from './collection.ts';
import type { ChangeSet, Engine } from './engine.ts';
import {
  ADVISORY_LOCK_KEY,
  CATALOGUE_TABLE,
  collectionTableName,
  createCollectionTableSql,
  describeDatabaseUrl,
  META_TABLE,
  passwordOf,
  quoteIdentifier,
  SCHEMA_SQL,
} from './postgres-tables.ts';
import type { StoreData } from './store-data.ts';
import { StoreError } from './store-error.ts';

const { Client } = pg;
type PgClient = InstanceType<typeof Client>;

/** Rows per statement: a two-year advance's commit is many statements, not one giant parameter. */
const CHUNK_ROWS = 5000;
/** An unreachable host fails the open instead of hanging it. */
const CONNECT_TIMEOUT_MS = 10_000;

export interface PostgresEngineOptions {
  /** Told of connection trouble between calls (a dropped connection); default console.warn. */
  warn?: (message: string) => void;
}

/**
 * Opens the store kept in the PostgreSQL database at `url`: connects, takes the database's
 * scheme-sim advisory lock (one simulator per database) and creates the tables it lacks.
 */
export async function openPostgresEngine(url: string, options: PostgresEngineOptions = {}): Promise<Engine> {
  const location = describeDatabaseUrl(url);
  const engine = new PostgresEngine(url, location, options.warn ?? ((m) => console.warn(m)));
  await engine.open();
  return engine;
}

/** One collection's part of a change set, serialised: rows to write and ids to delete. */
interface TableChanges {
  name: string;
  /** Rows changed in place (they keep their position). */
  upsertIds: string[];
  upsertRows: string[];
  /** Rows inserted since the last commit: deleted first, then inserted in this order (they go last). */
  placedIds: string[];
  placedRows: string[];
  deleteIds: string[];
}

/** A change set as SQL parameters, made before the first await (the store moves on meanwhile). */
interface PersistPlan {
  keepMeta?: string[];
  tables: TableChanges[];
  metaKeys: string[];
  metaValues: string[];
  metaDeletes: string[];
}

class PostgresEngine implements Engine {
  readonly location: string;
  readonly #url: string;
  readonly #warn: (message: string) => void;
  /** Collection name → its table, for every collection the database has a table for. */
  readonly #tables = new Map<string, string>();
  #client: PgClient | null = null;
  /** Set when the connection died: the next persist reconnects (and re-takes the lock) first. */
  #broken = false;
  #closing: Promise<void> | null = null;

  constructor(url: string, location: string, warn: (message: string) => void) {
    this.#url = url;
    this.location = location;
    this.#warn = warn;
  }

  async open(): Promise<void> {
    this.#client = await this.#connect();
    try {
      for (const sql of SCHEMA_SQL) await this.#client.query(sql);
      const catalogue = await this.#client.query(`SELECT name, table_name FROM ${CATALOGUE_TABLE}`);
      for (const { name, table_name } of catalogue.rows) this.#tables.set(name, table_name);
    } catch (err) {
      await this.#endClient();
      throw this.#error('cannot prepare the tables of', err);
    }
  }

  async load(): Promise<StoreData> {
    const client = this.#usable();
    const data: StoreData = { format: 1, meta: {}, collections: {} };
    try {
      // One snapshot: meta and every collection as of the same instant.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      for (const { key, value } of (await client.query(`SELECT key, value FROM ${META_TABLE}`)).rows)
        data.meta[key] = fromJsonb(value);
      for (const [name, table] of this.#tables) {
        const rows = new Map<string, Row>();
        const result = await client.query(`SELECT id, row FROM ${quoteIdentifier(table)} ORDER BY pos`);
        for (const { id, row } of result.rows) rows.set(id, fromJsonb(row) as Row);
        data.collections[name] = rows;
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw this.#error('cannot load the store from', err);
    }
    return data;
  }

  async persist(changes: ChangeSet): Promise<void> {
    if (this.#closing) throw new StoreError(`the store at ${this.location} is closed`);
    let plan: PersistPlan;
    try {
      plan = serialise(changes);
    } catch (err) {
      throw new StoreError(`cannot write the store to database ${this.location}: ${(err as Error).message}`);
    }
    if (this.#broken) await this.#reconnect();
    const client = this.#usable();
    const created: Array<[string, string]> = [];
    try {
      await client.query('BEGIN');
      if (plan.keepMeta) await this.#clear(client, plan.keepMeta);
      for (const changed of plan.tables) {
        let table = this.#tables.get(changed.name);
        if (!table) {
          table = collectionTableName(changed.name);
          await client.query(createCollectionTableSql(table));
          await client.query(`INSERT INTO ${CATALOGUE_TABLE} (name, table_name) VALUES ($1, $2)`, [
            changed.name,
            table,
          ]);
          created.push([changed.name, table]);
        }
        const t = quoteIdentifier(table);
        await deleteChunks(client, t, 'id', [...changed.deleteIds, ...changed.placedIds]);
        await upsertChunks(client, t, 'id', 'row', changed.upsertIds, changed.upsertRows);
        await insertChunks(client, t, changed.placedIds, changed.placedRows);
      }
      await upsertChunks(client, META_TABLE, 'key', 'value', plan.metaKeys, plan.metaValues);
      await deleteChunks(client, META_TABLE, 'key', plan.metaDeletes);
      await client.query('COMMIT');
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
    if (!this.#broken) {
      // Ending the session releases the lock too; unlocking first just says so explicitly.
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [ADVISORY_LOCK_KEY]).catch(() => undefined);
    }
    await this.#endClient();
  }

  async #clear(client: PgClient, keepMeta: string[]): Promise<void> {
    const tables = [...this.#tables.values()].map(quoteIdentifier);
    if (tables.length > 0) await client.query(`TRUNCATE ${tables.join(', ')}`);
    await client.query(`DELETE FROM ${META_TABLE} WHERE NOT (key = ANY($1::text[]))`, [keepMeta]);
  }

  /** A connected client holding the advisory lock, or a StoreError (the client is ended). */
  async #connect(): Promise<PgClient> {
    const client = new Client({ connectionString: this.#url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
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

  #usable(): PgClient {
    if (!this.#client || this.#closing) throw new StoreError(`the store at ${this.location} is closed`);
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

function serialise(changes: ChangeSet): PersistPlan {
  const plan: PersistPlan = { tables: [], metaKeys: [], metaValues: [], metaDeletes: [] };
  if (changes.cleared) plan.keepMeta = changes.cleared.keepMeta;
  for (const [name, rows] of changes.rows) {
    if (rows.size === 0) continue;
    const changed: TableChanges = { name, upsertIds: [], upsertRows: [], placedIds: [], placedRows: [], deleteIds: [] };
    const placed = changes.placed.get(name);
    for (const [id, row] of rows) {
      if (row === null) changed.deleteIds.push(id);
      else if (placed?.has(id)) {
        changed.placedIds.push(id);
        changed.placedRows.push(toJsonb(row));
      } else {
        changed.upsertIds.push(id);
        changed.upsertRows.push(toJsonb(row));
      }
    }
    plan.tables.push(changed);
  }
  for (const [key, value] of changes.meta) {
    if (value === undefined) plan.metaDeletes.push(key);
    else {
      plan.metaKeys.push(key);
      plan.metaValues.push(toJsonb(value));
    }
  }
  return plan;
}

/**
 * JSONB refuses the NUL character (U+0000) and lone surrogates, which a client may well send
 * inside a name (JSON.stringify writes both as \u escapes). A value whose JSON holds one is stored
 * as its JSON text inside a one-key wrapper object, and unwrapped on load: no value a client sends
 * can make every later commit fail.
 */
const NUL_WRAPPER = '$scheme-sim:json-with-nul';
const JSONB_REFUSES = /\\u0000|\\ud[89a-f]/i;

function toJsonb(value: unknown): string {
  const json = JSON.stringify(value);
  return JSONB_REFUSES.test(json) ? JSON.stringify({ [NUL_WRAPPER]: json }) : json;
}

function fromJsonb(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, NUL_WRAPPER)) return value;
  const wrapped = (value as Record<string, unknown>)[NUL_WRAPPER];
  return Object.keys(value).length === 1 && typeof wrapped === 'string' ? JSON.parse(wrapped) : value;
}

async function upsertChunks(
  client: PgClient,
  table: string,
  key: string,
  value: string,
  ids: string[],
  rows: string[],
) {
  for (let i = 0; i < ids.length; i += CHUNK_ROWS) {
    await client.query(
      `INSERT INTO ${table} (${key}, ${value}) SELECT * FROM unnest($1::text[], $2::jsonb[])
       ON CONFLICT (${key}) DO UPDATE SET ${value} = excluded.${value}`,
      [ids.slice(i, i + CHUNK_ROWS), rows.slice(i, i + CHUNK_ROWS)],
    );
  }
}

/** Inserts rows in the given order: each takes the next `pos`, after every row already there. */
async function insertChunks(client: PgClient, table: string, ids: string[], rows: string[]) {
  for (let i = 0; i < ids.length; i += CHUNK_ROWS) {
    await client.query(
      `INSERT INTO ${table} (id, row)
       SELECT id, row FROM unnest($1::text[], $2::jsonb[]) WITH ORDINALITY AS u(id, row, ord) ORDER BY ord`,
      [ids.slice(i, i + CHUNK_ROWS), rows.slice(i, i + CHUNK_ROWS)],
    );
  }
}

async function deleteChunks(client: PgClient, table: string, key: string, ids: string[]) {
  for (let i = 0; i < ids.length; i += CHUNK_ROWS) {
    await client.query(`DELETE FROM ${table} WHERE ${key} = ANY($1::text[])`, [ids.slice(i, i + CHUNK_ROWS)]);
  }
}
