// The domain reads its data synchronously and changes it in undoable units, whatever engine keeps it
// on disk: the in-memory store all engines share.
import { Collection, type Row } from './collection.ts';
import type { ChangeSet, Engine } from './engine.ts';
import type { StoreData } from './store-data.ts';
import { StoreError } from './store-error.ts';
import type { Store } from './store-interface.ts';

/** A change set handed to the engine, with the ids it came from (given back if the write fails). */
interface TakenChanges {
  set: ChangeSet;
  ids: Map<string, Set<string>>;
  placed: Map<string, Set<string>>;
  meta: Set<string>;
  cleared?: { keepMeta: string[] };
}

/** Undo-log markers: a meta change, and "there was nothing" (no row, no key). */
const META = Symbol('meta');
const ABSENT = Symbol('absent');

/**
 * The store every engine shares: all data in memory, read synchronously, units undone on failure.
 * It remembers which rows and meta keys changed since the last commit, and a commit hands only
 * those to the engine, so a write costs what it changes, not what the store holds.
 */
export class BufferedStore implements Store {
  readonly #data: StoreData;
  readonly #engine: Engine;
  readonly #collections = new Map<string, Collection<Row>>();
  /** Collection → ids changed since the last hand-over to the engine, in the order they were last inserted or first changed. */
  #changedRows = new Map<string, Set<string>>();
  /** Collection → ids inserted since the last hand-over (their place is last: see ChangeSet.placed). */
  #placedRows = new Map<string, Set<string>>();
  #changedMeta = new Set<string>();
  /** Set by clear(): the next change set starts by emptying everything but these meta keys. */
  #cleared: { keepMeta: string[] } | undefined;
  #dirty = false;
  #changes = 0;
  #writing: Promise<void> | null = null;
  #queued: Promise<void> | null = null;
  /**
   * While `atomically` runs: every change so far as (collection or META, id or key, what it was),
   * flat, so recording one allocates nothing. Undone newest first, a row changed twice ends as it
   * was before the first change. One buffer serves every unit.
   */
  #undo: unknown[] | null = null;
  readonly #undoBuffer: unknown[] = [];
  readonly #names = new Map<Collection<Row>, string>();
  readonly #rollbackListeners: Array<(collections: ReadonlySet<string>) => void> = [];

  constructor(data: StoreData, engine: Engine) {
    this.#data = data;
    this.#engine = engine;
  }

  get location(): string {
    return this.#engine.location;
  }

  get commitsOverlap(): boolean {
    return this.#engine.commitsOverlap === true;
  }

  get dirty(): boolean {
    return this.#dirty;
  }

  get writing(): boolean {
    return this.#writing !== null || this.#queued !== null;
  }

  get changes(): number {
    return this.#changes;
  }

  collection<T extends Row>(name: string): Collection<T> {
    let c = this.#collections.get(name);
    if (!c) {
      const rows = (this.#data.collections[name] ??= new Map());
      let changed = this.#changedRows.get(name);
      c = new Collection<Row>(rows, (id, before) => {
        this.#touch();
        // The set of this collection is looked up again after a hand-over replaced the map.
        if (changed === undefined || this.#changedRows.get(name) !== changed) {
          changed = this.#changedRows.get(name);
          if (!changed) this.#changedRows.set(name, (changed = new Set()));
        }
        if (before === undefined) {
          // An insertion puts the row last, after rows changed earlier in this window too.
          changed.delete(id);
          let placed = this.#placedRows.get(name);
          if (!placed) this.#placedRows.set(name, (placed = new Set()));
          placed.add(id);
        }
        changed.add(id);
        if (this.#undo) this.#undo.push(c, id, before ?? ABSENT);
      });
      this.#collections.set(name, c);
      this.#names.set(c, name);
    }
    return c as unknown as Collection<T>;
  }

  getMeta<T>(key: string): T | undefined {
    return this.#data.meta[key] as T | undefined;
  }

  setMeta(key: string, value: unknown): void {
    const meta = this.#data.meta;
    if (this.#undo) this.#undo.push(META, key, Object.hasOwn(meta, key) ? meta[key] : ABSENT);
    if (value === undefined) delete meta[key];
    else meta[key] = value;
    this.#changedMeta.add(key);
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
   * Undoes the changes logged after `mark`, newest first, then tells the listeners and rethrows
   * `err`. An undo step that fails does not stop the others; the failures go with `err` in an
   * AggregateError. (The rows put back are marked changed again: the engine rewrites them as they
   * were, which is harmless.)
   */
  #rollBack(undo: unknown[], mark: number, err: unknown): never {
    const recording = this.#undo;
    this.#undo = null; // the undoing itself is not recorded
    const meta = this.#data.meta;
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
    const data = this.#data;
    for (const name of Object.keys(data.collections)) {
      if (!this.#collections.has(name)) data.collections[name] = new Map();
    }
    const keep = new Set(options.keepMeta ?? []);
    for (const key of Object.keys(data.meta)) if (!keep.has(key)) delete data.meta[key];
    // The engine is told "empty everything" once instead of one delete per row.
    this.#changedRows = new Map();
    this.#placedRows = new Map();
    this.#changedMeta = new Set(keep);
    this.#cleared = { keepMeta: mergeKeep(this.#cleared, [...keep]) };
    this.#touch();
  }

  commit(): Promise<void> {
    if (!this.#dirty) return this.#writing ?? Promise.resolve();
    if (this.#queued) return this.#queued;
    if (!this.#writing) return this.#startWrite();
    // A write is in flight and holds older changes: everyone arriving now shares the next one.
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
      // The engine is released even when the last write failed: the next simulator reports it.
      await this.#engine.close();
    }
  }

  #touch(): void {
    this.#dirty = true;
    this.#changes++;
  }

  /** The changes since the last hand-over, as the rows and meta are now; the record starts anew. */
  #takeChanges(): TakenChanges {
    const ids = this.#changedRows;
    const placed = this.#placedRows;
    const meta = this.#changedMeta;
    const cleared = this.#cleared;
    this.#changedRows = new Map();
    this.#placedRows = new Map();
    this.#changedMeta = new Set();
    this.#cleared = undefined;
    const rows = new Map<string, Map<string, Row | null>>();
    for (const [name, changed] of ids) {
      const table = this.#data.collections[name];
      const now = new Map<string, Row | null>();
      for (const id of changed) now.set(id, table?.get(id) ?? null);
      rows.set(name, now);
    }
    const metaNow = new Map<string, unknown>();
    for (const key of meta) metaNow.set(key, this.#data.meta[key]);
    const set: ChangeSet = { rows, placed, meta: metaNow, ...(cleared ? { cleared } : {}) };
    return { set, ids, placed, meta, ...(cleared ? { cleared } : {}) };
  }

  /** A failed hand-over: its changes go back into the record, to be handed over again with newer ones. */
  #giveBack(taken: TakenChanges): void {
    if (taken.cleared) {
      // A clear after the failed one supersedes it; its kept keys are those both kept.
      this.#cleared = this.#cleared ? { keepMeta: mergeKeep(taken.cleared, this.#cleared.keepMeta) } : taken.cleared;
      // Rows changed since then are already in the record; those of the failed set are re-sent.
    }
    for (const [name, ids] of taken.ids) {
      // The failed changes came first: they go before the newer ones, which keep their order.
      const newer = this.#changedRows.get(name);
      const changed = new Set(ids);
      if (newer)
        for (const id of newer) {
          if (this.#placedRows.get(name)?.has(id)) changed.delete(id);
          changed.add(id);
        }
      this.#changedRows.set(name, changed);
    }
    for (const [name, ids] of taken.placed) {
      let placed = this.#placedRows.get(name);
      if (!placed) this.#placedRows.set(name, (placed = new Set()));
      for (const id of ids) placed.add(id);
    }
    for (const key of taken.meta) this.#changedMeta.add(key);
    this.#dirty = true;
  }

  #startWrite(): Promise<void> {
    this.#dirty = false;
    // The change set is built synchronously, so it holds every change made up to now.
    const taken = this.#takeChanges();
    let persisted: Promise<void>;
    try {
      persisted = this.#engine.persist(taken.set);
    } catch (err) {
      persisted = Promise.reject(err);
    }
    const p = persisted.catch((err: Error) => {
      this.#giveBack(taken);
      if (err instanceof StoreError) throw err;
      throw new StoreError(`cannot write data file ${this.location}: ${err?.message ?? String(err)}`);
    });
    const done = p.finally(() => {
      if (this.#writing === done) this.#writing = null;
    });
    this.#writing = done;
    return done;
  }
}

/** The meta keys two clears both keep (the later clear dropped what it did not keep). */
function mergeKeep(earlier: { keepMeta: string[] } | undefined, later: string[]): string[] {
  if (!earlier) return later;
  const first = new Set(earlier.keepMeta);
  return later.filter((key) => first.has(key));
}
