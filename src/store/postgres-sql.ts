// The SQL one store's load and commit run, on a connection the caller holds inside its own
// transaction: the dedicated engine (postgres-engine.ts) and the sandbox schema engine
// (postgres-schema-engine.ts) differ in how they get a connection, not in what they write.

import type { ClientBase } from 'pg';
import type { Row } from './collection.ts';
import type { ChangeSet } from './engine.ts';
import { collectionTableName, createCollectionTableSql, type TableLayout } from './postgres-tables.ts';
import type { StoreData } from './store-data.ts';

/** Rows per statement: a two-year advance's commit is many statements, not one giant parameter. */
const CHUNK_ROWS = 5000;

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
    const rows = new Map<string, Row>();
    const result = await client.query(`SELECT id, row FROM ${layout.table(table)} ORDER BY pos`);
    for (const { id, row } of result.rows) rows.set(id, fromJsonb(row) as Row);
    data.collections[name] = rows;
  }
  return data;
}

/**
 * Writes `plan` inside the caller's transaction. Returns the tables it created, which the caller
 * adds to `tables` only once the transaction committed (a rolled-back CREATE TABLE left nothing).
 */
export async function writePlan(
  client: ClientBase,
  layout: TableLayout,
  tables: TableNames,
  plan: PersistPlan,
): Promise<Array<[string, string]>> {
  const created: Array<[string, string]> = [];
  if (plan.keepMeta) await clear(client, layout, tables, plan.keepMeta);
  for (const changed of plan.tables) {
    let table = tables.get(changed.name);
    if (!table) {
      table = collectionTableName(changed.name);
      await client.query(createCollectionTableSql(layout.table(table)));
      await client.query(`INSERT INTO ${layout.catalogue} (name, table_name) VALUES ($1, $2)`, [changed.name, table]);
      created.push([changed.name, table]);
    }
    const t = layout.table(table);
    await deleteChunks(client, t, 'id', [...changed.deleteIds, ...changed.placedIds]);
    await upsertChunks(client, t, 'id', 'row', changed.upsertIds, changed.upsertRows);
    await insertChunks(client, t, changed.placedIds, changed.placedRows);
  }
  await upsertChunks(client, layout.meta, 'key', 'value', plan.metaKeys, plan.metaValues);
  await deleteChunks(client, layout.meta, 'key', plan.metaDeletes);
  return created;
}

async function clear(client: ClientBase, layout: TableLayout, tables: TableNames, keepMeta: string[]): Promise<void> {
  const names = [...tables.values()].map((table) => layout.table(table));
  if (names.length > 0) await client.query(`TRUNCATE ${names.join(', ')}`);
  await client.query(`DELETE FROM ${layout.meta} WHERE NOT (key = ANY($1::text[]))`, [keepMeta]);
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

async function upsertChunks(
  client: ClientBase,
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
async function insertChunks(client: ClientBase, table: string, ids: string[], rows: string[]) {
  for (let i = 0; i < ids.length; i += CHUNK_ROWS) {
    await client.query(
      `INSERT INTO ${table} (id, row)
       SELECT id, row FROM unnest($1::text[], $2::jsonb[]) WITH ORDINALITY AS u(id, row, ord) ORDER BY ord`,
      [ids.slice(i, i + CHUNK_ROWS), rows.slice(i, i + CHUNK_ROWS)],
    );
  }
}

async function deleteChunks(client: ClientBase, table: string, key: string, ids: string[]) {
  for (let i = 0; i < ids.length; i += CHUNK_ROWS) {
    await client.query(`DELETE FROM ${table} WHERE ${key} = ANY($1::text[])`, [ids.slice(i, i + CHUNK_ROWS)]);
  }
}
