// How the PostgreSQL engine lays a store out in a database: which tables, under which names, and
// how a database URL is named in messages. No connection here; the engine runs the SQL.

import { createHash } from 'node:crypto';
import { StoreError } from './store-error.ts';

export const META_TABLE = 'scheme_sim_meta';
export const CATALOGUE_TABLE = 'scheme_sim_collections';
const COLLECTION_PREFIX = 'scheme_sim_c_';
/** PostgreSQL cuts identifiers at 63 bytes; a longer derived name would silently alias another. */
const MAX_IDENTIFIER = 63;

/**
 * The session-level advisory lock that keeps one simulator per database. Advisory locks are
 * per database, so two simulators on two databases of one server do not meet.
 */
export const ADVISORY_LOCK_KEY = BigInt.asIntN(
  64,
  BigInt(`0x${createHash('sha256').update('scheme-sim').digest('hex').slice(0, 16)}`),
).toString();

/** A sandbox store's schema: this prefix and the 32 hex digits of the sandbox's UUID. */
export const SANDBOX_SCHEMA_PREFIX = 'scheme_sim_sbx_';
const SANDBOX_SCHEMA = /^scheme_sim_sbx_[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function createTablesSql(meta: string, catalogue: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${meta} (key text PRIMARY KEY, value jsonb NOT NULL)`,
    // The catalogue maps each collection's exact name to its table, so load finds every collection
    // and names that had to be changed to be identifiers come back as they were.
    `CREATE TABLE IF NOT EXISTS ${catalogue} (name text PRIMARY KEY, table_name text NOT NULL UNIQUE)`,
  ];
}

/** Where one store's tables are, as SQL names ready to go into a statement. */
export interface TableLayout {
  /** What open runs (in order) so the meta table and the catalogue exist. */
  readonly prepare: readonly string[];
  readonly meta: string;
  readonly catalogue: string;
  /** The SQL name of a collection's table, from its name as the catalogue holds it. */
  table(name: string): string;
}

/** The default store: its tables in the connection's search_path, as since the engine began. */
export const DEFAULT_LAYOUT: TableLayout = {
  prepare: createTablesSql(META_TABLE, CATALOGUE_TABLE),
  meta: META_TABLE,
  catalogue: CATALOGUE_TABLE,
  table: quoteIdentifier,
};

/**
 * The schema of sandbox `sandboxId` (a UUID, any case): `scheme_sim_sbx_` and its 32 hex digits,
 * the same digits as the sandbox's tokens carry.
 */
export function sandboxSchemaName(sandboxId: string): string {
  if (!UUID.test(sandboxId))
    throw new StoreError(
      `a sandbox's PostgreSQL schema is named from its UUID; ${JSON.stringify(sandboxId)} is not one`,
    );
  return SANDBOX_SCHEMA_PREFIX + sandboxId.replaceAll('-', '').toLowerCase();
}

export function isSandboxSchemaName(name: string): boolean {
  return SANDBOX_SCHEMA.test(name);
}

/**
 * Every schema name that reaches SQL passes here first: only `scheme_sim_sbx_` and 32 lower-case
 * hex digits, so a name can neither break out of its quotes nor reach another schema.
 */
export function assertSandboxSchemaName(name: string): void {
  if (!isSandboxSchemaName(name))
    throw new StoreError(
      `${JSON.stringify(name)} is not a sandbox schema name (scheme_sim_sbx_ and 32 lower-case hex digits; see sandboxSchemaName)`,
    );
}

/** A sandbox store: the default layout's tables inside its own schema, every name qualified. */
export function sandboxLayout(schema: string): TableLayout {
  assertSandboxSchemaName(schema);
  const inSchema = (table: string) => `${quoteIdentifier(schema)}.${quoteIdentifier(table)}`;
  return {
    prepare: [
      `CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`,
      ...createTablesSql(inSchema(META_TABLE), inSchema(CATALOGUE_TABLE)),
    ],
    meta: inSchema(META_TABLE),
    catalogue: inSchema(CATALOGUE_TABLE),
    table: inSchema,
  };
}

/**
 * The transaction-level advisory lock of one sandbox schema: its open, each commit and its drop
 * take it, so they run one at a time whoever runs them.
 */
export function sandboxLockKey(schema: string): string {
  return BigInt.asIntN(
    64,
    BigInt(`0x${createHash('sha256').update(`scheme-sim:schema:${schema}`).digest('hex').slice(0, 16)}`),
  ).toString();
}

/**
 * A collection's table, by its SQL name. `pos` keeps the store's insertion order (rows load
 * `ORDER BY pos`): an update keeps its row's place, an insertion takes a new, larger one.
 */
export function createCollectionTableSql(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, pos bigint GENERATED ALWAYS AS IDENTITY, row jsonb NOT NULL)`;
}

/**
 * The table of collection `name`: `scheme_sim_c_<name>` when the name is already a plain lower-case
 * identifier, else the name with every other character made `_`, cut short, and a hash of the
 * exact name appended, so `a-b` and `a_b` get different tables.
 */
export function collectionTableName(name: string): string {
  const plain = name.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (plain === name && COLLECTION_PREFIX.length + name.length <= MAX_IDENTIFIER) return COLLECTION_PREFIX + name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  const room = MAX_IDENTIFIER - COLLECTION_PREFIX.length - hash.length - 1;
  return `${COLLECTION_PREFIX}${plain.slice(0, room)}_${hash}`;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The URL as messages show it: no password, neither in the authority nor as a `password` query
 * parameter. A string that is not a URL is not echoed (it may hold the password in some shape).
 */
export function describeDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StoreError('the store URL is not a valid URL (expected postgres://user:password@host:port/database)');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new StoreError(
      `the store URL must start with postgres:// or postgresql:// (it starts with ${parsed.protocol}//)`,
    );
  parsed.password = '';
  parsed.searchParams.delete('password');
  return parsed.toString();
}

/** The password of the URL (decoded), to scrub it from driver messages that might quote it. */
export function passwordOf(url: string): string {
  try {
    const parsed = new URL(url);
    return decodeURIComponent(parsed.password) || parsed.searchParams.get('password') || '';
  } catch {
    return '';
  }
}
