// The domain's tables: each resource (and the outbox, the jobs) is a collection of rows, with the
// indexes that keep hot look-ups from scanning.
export interface Row {
  id: string;
}

type KeyFn<T> = (row: T) => string | undefined;

/**
 * One named set of rows keyed by id, with optional in-memory secondary indexes so that hot
 * look-ups (accounts by sort code + account number, records by organisation) never scan.
 * Rows live in the store's data object; the collection tells the store of each change (the store
 * marks itself dirty, and inside `atomically` keeps what the row was, to undo it).
 */
/** Told of every change before it is made: the row's id and what it was (undefined: no row). */
export type ChangeListener<T> = (id: string, before: T | undefined) => void;

export class Collection<T extends Row> {
  readonly #rows: Map<string, T>;
  readonly #touch: ChangeListener<T>;
  /** Index key → the rows with that key by id (rows, not ids: a look-up reads no second table). */
  readonly #indexes = new Map<string, Index<T>>();

  constructor(rows: Map<string, T>, touch: ChangeListener<T>) {
    this.#rows = rows;
    this.#touch = touch;
  }

  get size(): number {
    return this.#rows.size;
  }

  get(id: string): T | undefined {
    return this.#rows.get(id);
  }

  has(id: string): boolean {
    return this.#rows.has(id);
  }

  /** Rows in insertion order. */
  values(): T[] {
    return [...this.#rows.values()];
  }

  /** Inserts or replaces a row. */
  put(row: T): T {
    const old = this.get(row.id);
    this.#touch(row.id, old);
    this.#rows.set(row.id, row);
    if (old) this.#reindex(old, row);
    else this.#index(row);
    return row;
  }

  delete(id: string): boolean {
    const old = this.get(id);
    if (!old) return false;
    this.#touch(id, old);
    this.#unindex(old);
    this.#rows.delete(id);
    return true;
  }

  /** Declares an index; rows already present are indexed at once. Idempotent by name. */
  defineIndex(name: string, key: KeyFn<T>): void {
    if (this.#indexes.has(name)) return;
    const entry: Index<T> = { key, map: new Map() };
    this.#indexes.set(name, entry);
    for (const row of this.#rows.values()) add(entry, row);
  }

  /** Rows whose index key equals `key`, in insertion order of the index. */
  lookup(name: string, key: string): T[] {
    const entry = this.#indexes.get(name);
    if (!entry) throw new Error(`no index ${name}`);
    const rows = entry.map.get(key);
    if (rows === undefined) return [];
    return rows instanceof Map ? [...rows.values()] : [rows];
  }

  /** How many rows `lookup(name, key)` would return, without building the array. */
  count(name: string, key: string): number {
    const entry = this.#indexes.get(name);
    if (!entry) throw new Error(`no index ${name}`);
    const rows = entry.map.get(key);
    return rows === undefined ? 0 : rows instanceof Map ? rows.size : 1;
  }

  /** The first row of `lookup(name, key)`, without building the array (hot single-row look-ups). */
  first(name: string, key: string): T | undefined {
    const entry = this.#indexes.get(name);
    if (!entry) throw new Error(`no index ${name}`);
    const rows = entry.map.get(key);
    if (!(rows instanceof Map)) return rows;
    for (const row of rows.values()) return row;
    return undefined;
  }

  #index(row: T): void {
    for (const entry of this.#indexes.values()) add(entry, row);
  }

  /**
   * Moves a replaced row only in the indexes whose key changed; where the key is the same the new
   * row takes the old one's place (Map.set on an existing id keeps its position).
   */
  #reindex(old: T, row: T): void {
    for (const entry of this.#indexes.values()) {
      const before = entry.key(old);
      const after = entry.key(row);
      if (before === after) {
        if (before !== undefined) {
          const rows = entry.map.get(before);
          if (rows instanceof Map) rows.set(row.id, row);
          else entry.map.set(before, row);
        }
        continue;
      }
      if (before !== undefined) remove(entry, before, old.id);
      add(entry, row);
    }
  }

  #unindex(row: T): void {
    for (const entry of this.#indexes.values()) {
      const k = entry.key(row);
      if (k !== undefined) remove(entry, k, row.id);
    }
  }
}

/**
 * Index key → its row, or its rows by id when there are several. Most keys of a unique-ish index
 * (an account's sort code and number) have one row: holding it bare, not in a Map of one, saves a
 * Map per row (a million of them at a million accounts: seconds of start-up and of GC).
 */
interface Index<T extends Row> {
  key: KeyFn<T>;
  map: Map<string, T | Map<string, T>>;
}

function add<T extends Row>(entry: Index<T>, row: T): void {
  const k = entry.key(row);
  if (k === undefined) return;
  const rows = entry.map.get(k);
  if (rows === undefined || (!(rows instanceof Map) && rows.id === row.id)) entry.map.set(k, row);
  else if (rows instanceof Map) rows.set(row.id, row);
  else
    entry.map.set(
      k,
      new Map([
        [rows.id, rows],
        [row.id, row],
      ]),
    );
}

function remove<T extends Row>(entry: Index<T>, key: string, id: string): void {
  const rows = entry.map.get(key);
  if (rows === undefined) return;
  if (!(rows instanceof Map)) {
    if (rows.id === id) entry.map.delete(key);
    return;
  }
  rows.delete(id);
  // Back to one row: held bare again (the Map kept insertion order; one row has no order).
  if (rows.size === 1) for (const only of rows.values()) entry.map.set(key, only);
  else if (rows.size === 0) entry.map.delete(key);
}
