// The seam between the store and where it keeps its data (journal file, PostgreSQL, memory): what an
// engine is handed at each commit and what it must do with it.
import type { Row } from './collection.ts';
import type { StoreData } from './store-data.ts';

/**
 * What one commit hands an engine: everything that changed since the last commit, as it is now.
 * The rows are the store's own objects; the store never mutates a row in place (a change is a
 * `put` of a new object), so an engine may keep the references, but it must serialise or copy
 * what it needs before its first `await` if it wants the state of this commit exactly.
 */
export interface ChangeSet {
  /**
   * Set when the store was cleared (simulator reset) since the last commit: every collection was
   * emptied and every meta key dropped but `keepMeta`, before the changes below were made.
   */
  cleared?: { keepMeta: string[] };
  /** Collection name → row id → the row now, or null when it was deleted. */
  rows: Map<string, Map<string, Row | null>>;
  /**
   * Collection name → the ids of `rows` that were inserted (or deleted and inserted again) since the
   * last commit. The store keeps rows in insertion order (FIFO deliveries depend on it): these go
   * after every row already there, in the order `rows` lists them; the others keep their place.
   */
  placed: Map<string, Set<string>>;
  /** Meta key → its value now, or undefined when it was deleted. */
  meta: Map<string, unknown>;
}

/**
 * Where a store keeps its data. The store holds everything in memory and reads synchronously; an
 * engine loads it once and then makes each commit's changes durable. The domain never sees one.
 */
export interface Engine {
  /** Where the data lives, for messages: a path, a database URL without its password, or "memory". */
  readonly location: string;
  /**
   * True where a write is mostly another process's work (PostgreSQL parses and writes on its own
   * core): a long advance runs its next slice while the last is written (decisions 044, 045).
   * Absent or false for a local engine, whose write and fsync share this machine with the
   * server's clients.
   */
  readonly commitsOverlap?: boolean;
  /** Everything persisted, once, at open (an empty store for a new location). */
  load(): Promise<StoreData>;
  /**
   * Makes `changes` durable; resolves only once they are (durable before acknowledged). The store
   * calls it one at a time: a second call comes only after the first settled. On rejection the
   * engine has persisted none of `changes` (or the next load does not see a partial unit), and
   * the store hands the same changes again, merged with newer ones, on its next commit.
   */
  persist(changes: ChangeSet): Promise<void>;
  /** Releases the engine (its lock, its connections); called once, after the last persist. */
  close(): Promise<void>;
}
