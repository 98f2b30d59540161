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

const SCHEMA_SQL = [
  `CREATE TABLE IF NOT EXISTS ${META_TABLE} (key text PRIMARY KEY, value jsonb NOT NULL)`,
  // The catalogue maps each collection's exact name to its table, so load finds every collection
  // and names that had to be changed to be identifiers come back as they were.
  `CREATE TABLE IF NOT EXISTS ${CATALOGUE_TABLE} (name text PRIMARY KEY, table_name text NOT NULL UNIQUE)`,
];

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
  prepare: SCHEMA_SQL,
  meta: META_TABLE,
  catalogue: CATALOGUE_TABLE,
  table: quoteIdentifier,
};

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
