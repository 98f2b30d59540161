import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type Adapter, Low, Memory } from 'lowdb';
import { Collection, type Row } from './collection.ts';
import { DurableJsonFile } from './durable-json-file.ts';
import { FileLock } from './file-lock.ts';
import { assertLoadable, type RecordCheck } from './load-check.ts';
import { emptyStoreData, isStoreData, type StoreData } from './store-data.ts';
import { StoreError } from './store-error.ts';

export type { StoreData } from './store-data.ts';
export { StoreError } from './store-error.ts';

/**
 * The persistence interface the domain uses. Everything is held in memory and read synchronously;
 * `commit()` makes the current state durable. The domain never touches lowdb directly, so another
 * engine can stand behind this interface later.
 */
export interface Store {
  collection<T extends Row>(name: string): Collection<T>;
  getMeta<T>(key: string): T | undefined;
  setMeta(key: string, value: unknown): void;
  /** True when there are changes not yet handed to a write. */
  readonly dirty: boolean;
  /** True while a write is in flight or queued (it may hold changes someone still has to wait for). */
  readonly writing: boolean;
  /**
   * How many changes were made since the store opened: a request that made none (its count is the
   * same after it) has nothing to wait for, so reads never wait on another request's write.
   */
  readonly changes: number;
  /**
   * Resolves once every change made before the call is on disk. Calls that arrive while a write is
   * in flight share the next write (group commit).
   */
  commit(): Promise<void>;
  /**
   * Runs `fn` (synchronous) as one unit: if it throws, every change it made to collections and
   * meta is undone before the error goes on. Inside another unit it is a savepoint: its own
   * failure undoes its own changes, and a failure of the outer unit undoes them too.
   */
  atomically<T>(fn: () => T): T;
  /**
   * Calls `listener` after a unit's changes were undone, with the names of the collections they
   * touched: state kept beside the store (the scheduler's queue, the outbox's due heap) re-reads it.
   */
  onRollback(listener: (collections: ReadonlySet<string>) => void): void;
  /** Drops every record of every collection and all meta but the keys in `keepMeta` (simulator reset). */
  clear(options?: { keepMeta?: string[] }): void;
  /** Flushes and releases the store. */
  close(): Promise<void>;
  /** Where the data lives, for messages: a path or "memory". */
  readonly location: string;
}

export interface OpenStoreOptions {
  /** JSON file path; omit for an in-memory store. */
  file?: string;
  /**
   * Wraps the file adapter (tests use it to count or hold writes). The wrapper must still read
   * and write through the adapter it is given.
   */
  wrapAdapter?: (adapter: Adapter<StoreData>) => Adapter<StoreData>;
  /** Told when a stale lock (its process is gone) is taken over; default console.warn. */
  warn?: (message: string) => void;
  /** Checks every record and meta key before the store is used; a failure opens nothing and writes nothing. */
  check?: RecordCheck;
}

export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  if (!options.file) {
    const db = new Low<StoreData>(new Memory<StoreData>(), emptyStoreData());
    return new LowStore(db, 'memory');
  }
  const file = options.file;
  // A missing file is a new store; its folder is created so the lock and the first write can land.
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (err) {
    throw new StoreError(`cannot create the folder of data file ${file}: ${(err as Error).message}`);
  }
  const lock = FileLock.acquire(file, options.warn);
  try {
    return await openFileStore(file, lock, options);
  } catch (err) {
    lock.release();
    throw err;
  }
}

async function openFileStore(file: string, lock: FileLock, options: OpenStoreOptions): Promise<Store> {
  const fileAdapter = new DurableJsonFile<StoreData>(file);
  const adapter = options.wrapAdapter ? options.wrapAdapter(fileAdapter) : fileAdapter;
  // Read through the adapter, not Low.read(): Low keeps its default data when the file parses to
  // a falsy value (`null`, `0`), which would silently reset the store on the next write.
  let raw: unknown;
  try {
    raw = await adapter.read();
  } catch (err) {
    throw new StoreError(`cannot read data file ${file}: ${(err as Error).message}`);
  }
  // The adapter answers null both for a missing file and for a file holding `null`.
  if ((raw !== null || existsSync(file)) && !isStoreData(raw)) {
    throw new StoreError(`data file ${file} is not a scheme-sim store (expected {format: 1, meta, collections})`);
  }
  if (raw !== null) assertLoadable(file, raw, options.check);
  const db = new Low<StoreData>(adapter, raw ?? emptyStoreData());
  return new LowStore(db, file, lock);
}

/** Undo-log markers: a meta change, and "there was nothing" (no row, no key). */
const META = Symbol('meta');
const ABSENT = Symbol('absent');

class LowStore implements Store {
  readonly #db: Low<StoreData>;
  readonly #collections = new Map<string, Collection<Row>>();
  #dirty = false;
  #changes = 0;
  #writing: Promise<void> | null = null;
  #queued: Promise<void> | null = null;
  readonly location: string;
  readonly #lock: FileLock | undefined;
  /**
   * While `atomically` runs: every change so far as (collection or META, id or key, what it was),
   * flat, so recording one allocates nothing. Undone newest first, a row changed twice ends as it
   * was before the first change. One buffer serves every unit.
   */
  #undo: unknown[] | null = null;
  readonly #undoBuffer: unknown[] = [];
  readonly #names = new Map<Collection<Row>, string>();
  readonly #rollbackListeners: Array<(collections: ReadonlySet<string>) => void> = [];

  constructor(db: Low<StoreData>, location: string, lock?: FileLock) {
    this.#db = db;
    this.location = location;
    this.#lock = lock;
  }

  get dirty(): boolean {
    return this.#dirty;
  }

  get writing(): boolean {
    return this.#writing !== null || this.#queued !== null;
  }

  collection<T extends Row>(name: string): Collection<T> {
    let c = this.#collections.get(name);
    if (!c) {
      const data = this.#db.data;
      data.collections[name] ??= {};
      c = new Collection<Row>(data.collections[name], (id, before) => {
        this.#touch();
        if (this.#undo) this.#undo.push(c, id, before ?? ABSENT);
      });
      this.#collections.set(name, c);
      this.#names.set(c, name);
    }
    return c as unknown as Collection<T>;
  }

  getMeta<T>(key: string): T | undefined {
    return this.#db.data.meta[key] as T | undefined;
  }

  setMeta(key: string, value: unknown): void {
    const meta = this.#db.data.meta;
    if (this.#undo) this.#undo.push(META, key, Object.hasOwn(meta, key) ? meta[key] : ABSENT);
    if (value === undefined) delete this.#db.data.meta[key];
    else this.#db.data.meta[key] = value;
    this.#touch();
  }

  atomically<T>(fn: () => T): T {
    const outermost = this.#undo === null;
    const undo = (this.#undo ??= this.#undoBuffer);
    const mark = undo.length; // an inner unit undoes back to here only
    try {
      const result = fn();
      if (result instanceof Promise) {
        result.catch(() => undefined); // its rejection is answered by the TypeError below
        throw new TypeError(
          'store.atomically runs synchronous work only: changes made after an await could not be undone',
        );
      }
      return result;
    } catch (err) {
      return this.#rollBack(undo, mark, err);
    } finally {
      if (outermost) {
        this.#undo = null;
        undo.length = 0;
      }
    }
  }

  onRollback(listener: (collections: ReadonlySet<string>) => void): void {
    this.#rollbackListeners.push(listener);
  }

  /**
   * Undoes the changes logged after `mark`, newest first (a row changed twice ends as it was before
   * the first change), then tells the listeners and rethrows `err`. An undo step that fails does
   * not stop the others; the failures go with `err` in an AggregateError.
   */
  #rollBack(undo: unknown[], mark: number, err: unknown): never {
    const recording = this.#undo;
    this.#undo = null; // the undoing itself is not recorded
    const meta = this.#db.data.meta;
    const touched = new Set<string>();
    const failures: unknown[] = [];
    for (let i = undo.length - 3; i >= mark; i -= 3) {
      const target = undo[i];
      const id = undo[i + 1] as string;
      const before = undo[i + 2];
      try {
        if (target === META) {
          if (before === ABSENT) delete meta[id];
          else meta[id] = before;
          continue;
        }
        const collection = target as Collection<Row>;
        touched.add(this.#names.get(collection)!);
        if (before === ABSENT) collection.delete(id);
        else collection.put(before as Row);
      } catch (e) {
        failures.push(e);
      }
    }
    undo.length = mark;
    this.#undo = recording;
    for (const listener of this.#rollbackListeners) {
      try {
        listener(touched);
      } catch (e) {
        failures.push(e);
      }
    }
    if (failures.length > 0)
      throw new AggregateError(
        [err, ...failures],
        `a failed unit could not be fully undone: ${(err as Error)?.message ?? String(err)}`,
      );
    throw err;
  }

  clear(options: { keepMeta?: string[] } = {}): void {
    if (this.#undo) throw new Error('store.clear cannot run inside atomically');
    // Opened collections are emptied through their Collection (which keeps its indexes right);
    // collections nobody opened since start-up are emptied in the data.
    for (const c of this.#collections.values()) for (const row of c.values()) c.delete(row.id);
    const data = this.#db.data;
    for (const name of Object.keys(data.collections)) {
      if (!this.#collections.has(name)) data.collections[name] = {};
    }
    const keep = new Set(options.keepMeta ?? []);
    for (const key of Object.keys(data.meta)) if (!keep.has(key)) delete data.meta[key];
    this.#touch();
  }

  commit(): Promise<void> {
    if (!this.#dirty) return this.#writing ?? Promise.resolve();
    if (this.#queued) return this.#queued;
    if (!this.#writing) return this.#startWrite();
    // A write is in flight and holds an older snapshot: everyone arriving now shares the next one.
    this.#queued = this.#writing
      .catch(() => undefined)
      .then(() => {
        this.#queued = null;
        return this.#startWrite();
      });
    return this.#queued;
  }

  async close(): Promise<void> {
    try {
      await this.commit();
      if (this.#queued) await this.#queued;
    } finally {
      // The lock goes even when the last write failed: the next simulator reports that file itself.
      this.#lock?.release();
    }
  }

  #touch(): void {
    this.#dirty = true;
    this.#changes++;
  }

  get changes(): number {
    return this.#changes;
  }

  #startWrite(): Promise<void> {
    this.#dirty = false;
    // db.write() serialises the data synchronously before its first await, so this snapshot holds
    // every change made up to now.
    const p = this.#db.write().catch((err: Error) => {
      this.#dirty = true;
      throw new StoreError(`cannot write data file ${this.location}: ${err.message}`);
    });
    const done = p.finally(() => {
      if (this.#writing === done) this.#writing = null;
    });
    this.#writing = done;
    return done;
  }
}
