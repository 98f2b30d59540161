// The SQL one store's load and commit run, on a connection the caller holds inside its own
// transaction: the dedicated engine (postgres-engine.ts) and the sandbox schema engine
// (postgres-schema-engine.ts) differ in how they get a connection, not in what they write.

import type { ClientBase } from 'pg';
import type { Row } from './collection.ts';
import type { ChangeSet } from './engine.ts';
import { collectionTableName, createCollectionTableSql, type TableLayout } from './postgres-tables.ts';
import type { StoreData } from './store-data.ts';

/** Ids per DELETE: a two-year advance's commit is many statements, not one giant parameter. */
const CHUNK_IDS = 5000;
/**
 * Rows per INSERT: each id and row is a parameter of its own (two per row; a statement takes at
 * most 65,535), so PostgreSQL parses each row once, as jsonb, and the process escapes nothing.
 */
const CHUNK_ROWS = 1000;

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
export interface PersistPlan {
  keepMeta?: string[];
  tables: TableChanges[];
  metaKeys: string[];
  metaValues: string[];
  metaDeletes: string[];
}

/** Collection name → the name of its table (unqualified, as the catalogue holds it). */
export type TableNames = Map<string, string>;

export async function readCatalogue(client: ClientBase, layout: TableLayout): Promise<TableNames> {
  const tables: TableNames = new Map();
  const catalogue = await client.query(`SELECT name, table_name FROM ${layout.catalogue}`);
  for (const { name, table_name } of catalogue.rows) tables.set(name, table_name);
  return tables;
}

/** Meta and every collection of `tables`; run it in one snapshot (REPEATABLE READ). */
export async function readStore(client: ClientBase, layout: TableLayout, tables: TableNames): Promise<StoreData> {
  const data: StoreData = { format: 1, meta: {}, collections: {} };
  for (const { key, value } of (await client.query(`SELECT key, value FROM ${layout.meta}`)).rows)
    data.meta[key] = fromJsonb(value);
  for (const [name, table] of tables) {
    // In the table's physical order, put in `pos` order here: an ORDER BY pos has no index to
    // follow, and PostgreSQL sorting a million rows spills them to disk (4 s of a 15 s load,
    // measured 2026-11-28); the heap is mostly in `pos` order already, so the check is all it costs.
    const result = await client.query<[string, string, unknown]>({
      text: `SELECT pos, id, row FROM ${layout.table(table)}`,
      rowMode: 'array',
    });
    const found = inPosOrder(result.rows);
    const rows = new Map<string, Row>();
    for (const [, id, row] of found) rows.set(id, fromJsonb(row) as Row);
    data.collections[name] = rows;
  }
  return data;
}

/** Rows of (pos as PostgreSQL's int8 text, …) sorted by pos, in place; not sorted when they are in order already. */
function inPosOrder<T extends [string, ...unknown[]]>(rows: T[]): T[] {
  const pos = new Float64Array(rows.length);
  let sorted = true;
  for (let i = 0; i < rows.length; i++) {
    pos[i] = Number(rows[i]![0]);
    if (i > 0 && pos[i]! < pos[i - 1]!) sorted = false;
  }
  if (sorted) return rows;
  const order = Array.from(rows.keys()).sort((a, b) => pos[a]! - pos[b]!);
  return order.map((i) => rows[i]!);
}

/** One SQL statement with its parameters. */
export interface Statement {
  text: string;
  values?: unknown[];
}

/**
 * The statements that write `plan`, in order, for the caller to run inside its own transaction,
 * and the tables they create, which the caller adds to `tables` only once the transaction
 * committed (a rolled-back CREATE TABLE left nothing). Nothing in one statement depends on what
 * an earlier one returned, so a caller may send them all at once (pipelined).
 */
export function planStatements(
  layout: TableLayout,
  tables: TableNames,
  plan: PersistPlan,
): { statements: Statement[]; created: Array<[string, string]> } {
  const statements: Statement[] = [];
  const created: Array<[string, string]> = [];
  if (plan.keepMeta) statements.push(...clear(layout, tables, plan.keepMeta));
  for (const changed of plan.tables) {
    let table = tables.get(changed.name);
    if (!table) {
      table = collectionTableName(changed.name);
      statements.push(
        { text: createCollectionTableSql(layout.table(table)) },
        { text: `INSERT INTO ${layout.catalogue} (name, table_name) VALUES ($1, $2)`, values: [changed.name, table] },
      );
      created.push([changed.name, table]);
    }
    const t = layout.table(table);
    deleteChunks(statements, t, 'id', changed.deleteIds);
    upsertChunks(statements, t, 'id', 'row', changed.upsertIds, changed.upsertRows);
    // A placed row goes last whether it is new or was there before (deleted and inserted again):
    // it takes the next `pos` either way, in the order given.
    upsertChunks(statements, t, 'id', 'row', changed.placedIds, changed.placedRows, ', pos = DEFAULT');
  }
  upsertChunks(statements, layout.meta, 'key', 'value', plan.metaKeys, plan.metaValues);
  deleteChunks(statements, layout.meta, 'key', plan.metaDeletes);
  return { statements, created };
}

/** Writes `plan` inside the caller's transaction, one statement after another; see planStatements. */
export async function writePlan(
  client: ClientBase,
  layout: TableLayout,
  tables: TableNames,
  plan: PersistPlan,
): Promise<Array<[string, string]>> {
  const { statements, created } = planStatements(layout, tables, plan);
  for (const { text, values } of statements) await client.query(text, values);
  return created;
}

function clear(layout: TableLayout, tables: TableNames, keepMeta: string[]): Statement[] {
  const names = [...tables.values()].map((table) => layout.table(table));
  return [
    ...(names.length > 0 ? [{ text: `TRUNCATE ${names.join(', ')}` }] : []),
    { text: `DELETE FROM ${layout.meta} WHERE NOT (key = ANY($1::text[]))`, values: [keepMeta] },
  ];
}

export function serialise(changes: ChangeSet): PersistPlan {
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

/**
 * Writes rows (`key`, jsonb `value`), a new one inserted, an existing one's value replaced (and
 * `alsoSet` done to it). Rows are inserted in the order given, so each new one takes the next
 * `pos` after the one before it; a VALUES list is read in order, as an ORDER BY would give it.
 */
function upsertChunks(
  out: Statement[],
  table: string,
  key: string,
  value: string,
  ids: string[],
  rows: string[],
  alsoSet = '',
) {
  for (let i = 0; i < ids.length; i += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, ids.length - i);
    const values: string[] = new Array(2 * n);
    const tuples: string[] = new Array(n);
    for (let k = 0; k < n; k++) {
      values[2 * k] = ids[i + k]!;
      values[2 * k + 1] = rows[i + k]!;
      tuples[k] = `($${2 * k + 1}, $${2 * k + 2}::jsonb)`;
    }
    out.push({
      text: `INSERT INTO ${table} (${key}, ${value}) VALUES ${tuples.join(', ')}
       ON CONFLICT (${key}) DO UPDATE SET ${value} = excluded.${value}${alsoSet}`,
      values,
    });
  }
}

function deleteChunks(out: Statement[], table: string, key: string, ids: string[]) {
  for (let i = 0; i < ids.length; i += CHUNK_IDS) {
    out.push({ text: `DELETE FROM ${table} WHERE ${key} = ANY($1::text[])`, values: [ids.slice(i, i + CHUNK_IDS)] });
  }
}
