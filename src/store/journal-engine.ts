import { constants } from 'node:fs';
import { copyFile, type FileHandle, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ChangeSet, Engine } from './engine.ts';
import type { FileLock } from './file-lock.ts';
import { cutTornTail, type LoadedJournalStore, loadJournalStore, tornTailNote } from './journal-files.ts';
import { journalPaths } from './journal-paths.ts';
import { encodeRecord } from './journal-record.ts';
import { rewriteStore } from './journal-rewrite.ts';
import { captureSnapshot, type SnapshotContent, writeSnapshot } from './snapshot-file.ts';
import { describeDamage } from './store-damage.ts';
import type { StoreData } from './store-data.ts';
import { StoreError } from './store-error.ts';
import { syncDirectory } from './sync-directory.ts';

/** When the journal is compacted into the snapshot: past `bytes`, or past `ratio` × the snapshot once it is over `minBytes`. */
export interface CompactionPolicy {
  bytes: number;
  ratio: number;
  minBytes: number;
}

export const DEFAULT_COMPACTION: CompactionPolicy = { bytes: 64 * 1024 * 1024, ratio: 1, minBytes: 4 * 1024 * 1024 };

export interface JournalEngineOptions {
  compaction?: Partial<CompactionPolicy>;
  warn?: (message: string) => void;
}

/**
 * The embedded engine: a snapshot file plus a journal of committed units (docs/store.md).
 * A commit appends one record durably (written with O_DSYNC, or fdatasynced where the system has
 * no O_DSYNC), so it costs what it changed. Compaction writes a
 * new snapshot row by row in the background and drops the journal it covers.
 */
export class JournalEngine implements Engine {
  readonly location: string;
  readonly #paths: ReturnType<typeof journalPaths>;
  readonly #lock: FileLock;
  readonly #policy: CompactionPolicy;
  readonly #warn: (message: string) => void;
  #data: StoreData | undefined;
  #seq = 0;
  #journal: FileHandle | undefined;
  #journalBytes = 0;
  #snapshotBytes = 0;
  /** Set at load, done in `opened()` once the data passed its checks (nothing is written before). */
  #startUp: Omit<LoadedJournalStore, 'data' | 'seq'> | undefined;
  /** The compaction writing in the background, if one is. */
  #compacting: Promise<void> | null = null;
  #compactionFailed = false;
  #closed = false;

  constructor(file: string, lock: FileLock, options: JournalEngineOptions = {}) {
    this.location = file;
    this.#paths = journalPaths(file);
    this.#lock = lock;
    this.#policy = { ...DEFAULT_COMPACTION, ...options.compaction };
    this.#warn = options.warn ?? ((m) => console.warn(m));
  }

  async load(): Promise<StoreData> {
    const loaded = await loadJournalStore(this.location);
    this.#data = loaded.data;
    this.#seq = loaded.seq;
    const { data: _, seq: __, ...startUp } = loaded;
    this.#startUp = startUp;
    return loaded.data;
  }

  /**
   * Finishes start-up once the loaded data passed its checks: cuts a torn tail, migrates an older
   * one-document file (kept as `<file>.format1.bak`), finishes an interrupted compaction, and
   * opens the journal for appending.
   */
  async opened(): Promise<void> {
    const startUp = this.#startUp;
    if (!startUp || !this.#data) throw new Error('JournalEngine.opened() before load()');
    this.#startUp = undefined;
    if (startUp.tornTail) {
      this.#warn(
        `scheme-sim: ${describeDamage(tornTailNote(this.#paths.journal, startUp.tornTail))}: cut off, a write that was never acknowledged`,
      );
      await cutTornTail(this.#paths.journal, startUp.tornTail.offset);
    }
    if (startUp.legacy) {
      await copyFile(this.location, this.#paths.backup);
      this.#warn(
        `scheme-sim: ${this.location}: migrated to the journal format; the old file is kept as ${this.#paths.backup}`,
      );
    }
    if (startUp.legacy || startUp.rotated || startUp.fresh || startUp.starting) {
      // Everything loaded goes into a new snapshot (an empty one for a new store, so the data file
      // always exists), beside an empty journal; the journals it covers go.
      await rewriteStore(this.location, this.#seq, this.#data);
    }
    this.#snapshotBytes = await sizeOf(this.location);
    this.#journalBytes = await sizeOf(this.#paths.journal);
    this.#journal = await openJournal(this.#paths.journal);
  }

  async persist(changes: ChangeSet): Promise<void> {
    const journal = this.#journal;
    if (!journal || this.#closed) throw new StoreError(`data file ${this.location} is not open`);
    const seq = this.#seq + 1;
    const line = encodeRecord(seq, changes); // now, before any await: this commit's state exactly
    // The store built `changes` from its data just now, so the data is this record's state: a
    // snapshot captured here covers every record up to `seq`.
    const capture = this.#compactionDue(Buffer.byteLength(line)) ? captureSnapshot(seq, this.#data!) : undefined;
    const before = this.#journalBytes;
    try {
      const { bytesWritten } = await journal.write(line);
      if (!DSYNC) await journal.datasync();
      this.#journalBytes = before + bytesWritten;
    } catch (err) {
      // A partial append would sit in the middle of the journal under the next record: cut it off.
      await journal.truncate(before).catch(() => undefined);
      throw new StoreError(`cannot write data file ${this.location}: ${(err as Error).message}`);
    }
    this.#seq = seq;
    if (capture) await this.#rotate(capture);
  }

  #compactionDue(adding: number): boolean {
    if (this.#compacting || this.#compactionFailed) return false;
    const size = this.#journalBytes + adding;
    const p = this.#policy;
    return size >= p.bytes || (size >= p.minBytes && size >= p.ratio * this.#snapshotBytes);
  }

  /**
   * Moves the journal aside (its records are all in `capture`) and starts a new one, then writes
   * the snapshot in the background. Runs inside a persist, so no append can come in between.
   */
  async #rotate(capture: SnapshotContent): Promise<void> {
    try {
      await this.#journal!.close();
      this.#journal = undefined;
      await rename(this.#paths.journal, this.#paths.rotated);
      this.#journal = await openJournal(this.#paths.journal);
      await syncDirectory(dirname(this.location));
      this.#journalBytes = 0;
    } catch (err) {
      this.#compactionFailed = true;
      this.#warn(`scheme-sim: ${this.location}: compaction not started: ${(err as Error).message}`);
      // Appends go on to whichever journal is there; start-up replays both.
      this.#journal ??= await openJournal(this.#paths.journal);
      return;
    }
    this.#compacting = this.#compact(capture).finally(() => {
      this.#compacting = null;
    });
  }

  async #compact(capture: SnapshotContent): Promise<void> {
    try {
      await writeSnapshot(this.location, capture);
      await unlink(this.#paths.rotated);
      await syncDirectory(dirname(this.location));
      this.#snapshotBytes = await sizeOf(this.location);
    } catch (err) {
      // The rotated journal stays: start-up replays it and compacts again. Until then, no more tries.
      this.#compactionFailed = true;
      this.#warn(
        `scheme-sim: ${this.location}: compaction failed (start-up will finish it): ${(err as Error).message}`,
      );
    }
  }

  /** Resolves when no compaction is running (tests and close). */
  async compacted(): Promise<void> {
    while (this.#compacting) await this.#compacting;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.compacted();
      await this.#journal?.close();
    } finally {
      this.#lock.release();
    }
  }
}

/**
 * O_DSYNC: a write returns once its data is on disk, as write + fdatasync do, in one call to the
 * thread pool instead of two (a visible share of a create's CPU). Not on every system (Windows).
 */
const DSYNC = constants.O_DSYNC;

/** The journal opened for appending, each write durable when it returns (or after a datasync). */
function openJournal(path: string): Promise<FileHandle> {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (DSYNC ?? 0);
  return open(path, flags, 0o600);
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}
