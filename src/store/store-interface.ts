// The domain depends on this interface, not on the store or its engines, so engines can change
// without it noticing.
import type { Collection, Row } from './collection.ts';

/**
 * The persistence interface the domain uses. Everything is held in memory and read synchronously;
 * `commit()` makes the changes since the last commit durable through an engine (memory, the
 * journal file, PostgreSQL): the domain never sees which.
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
  /** The engine's `commitsOverlap`: whether an advance writes a slice while it runs the next. */
  readonly commitsOverlap: boolean;
}
