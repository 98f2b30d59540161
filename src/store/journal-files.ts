// Start-up and doctor must read a journal store's files without changing a byte: the loader, and the
// inspection that says what is damaged and where.
import { open, readFile, stat, truncate } from 'node:fs/promises';
import { journalPaths, wrongKindDamage } from './journal-paths.ts';
import { JournalReplay, type TornTail } from './journal-replay.ts';
import { isSnapshotStart, readSnapshot, SnapshotDamaged } from './snapshot-file.ts';
import { damageError, lineAt, type StoreDamage } from './store-damage.ts';
import { emptyStoreData, fromDocument, isStoreDocument, type StoreData } from './store-data.ts';
import { StoreError } from './store-error.ts';

/** What is on disk, loaded: the data, the last sequence, and what start-up has to finish. */
export interface LoadedJournalStore {
  data: StoreData;
  seq: number;
  /** The data file holds the older one-document format: it is migrated once the data passed its checks. */
  legacy: boolean;
  /** There is no snapshot yet (a new store): start-up writes one, so the data file always exists. */
  fresh: boolean;
  /** A rotated journal was found (a compaction did not finish): start-up compacts again. */
  rotated: boolean;
  /** A new journal was being started beside a new snapshot (`.journal.new`): start-up does it again. */
  starting: boolean;
  /** A torn last record was found: where the journal has to be cut, and why. */
  tornTail?: TornTail;
}

/** Everything known about a store's files, read without changing a byte. */
export interface JournalInspection extends LoadedJournalStore {
  /** False when the snapshot (or older file) itself cannot be read: `data` is then empty, not the store. */
  readable: boolean;
  /**
   * Damage start-up refuses (it opens nothing and writes nothing); the first one is what it says.
   * `data` holds what can be proved whole: the store up to the first damage in its journals.
   */
  damage: StoreDamage[];
  /** What start-up finishes or cuts off itself, with a warning (a torn tail, an interrupted compaction). */
  notes: StoreDamage[];
}

/**
 * Reads a journal store without changing a byte: the snapshot (or an older one-document file),
 * then the rotated journal and the journal, each record after the snapshot's sequence, and says
 * what is wrong with them (docs/store.md, "Damaged stores").
 */
export async function inspectJournalStore(file: string): Promise<JournalInspection> {
  const paths = journalPaths(file);
  const damage = await wrongKindDamage(file);
  const notes: StoreDamage[] = [];
  const none = {
    data: emptyStoreData(),
    seq: 0,
    legacy: false,
    fresh: false,
    rotated: false,
    starting: false,
    readable: false,
    damage,
    notes,
  };
  if (damage.length > 0) return none;
  const [snapshotSize, journalSize, rotatedSize, startingSize] = await Promise.all(
    [paths.snapshot, paths.journal, paths.rotated, paths.starting].map(sizeOf),
  );
  const rotated = rotatedSize !== undefined;
  const starting = startingSize !== undefined;
  const journals = journalSize !== undefined || rotated;
  if (startingSize) damage.push(startingNotEmpty(paths.starting, startingSize));

  let base: { data: StoreData; seq: number; legacy: boolean };
  if (snapshotSize === undefined) {
    if (!journals) return { ...none, fresh: true, starting, readable: true };
    base = { data: emptyStoreData(), seq: 0, legacy: false };
  } else {
    try {
      base = await loadBase(file);
    } catch (err) {
      damage.push(baseDamage(file, err as Error));
      return none;
    }
  }
  const snapshotKnown = snapshotSize !== undefined;
  if (base.legacy && journals) {
    // Our own migration never leaves a journal beside the older file: it was put back by hand over
    // a later store, and replaying that store's journal onto it would mix two histories.
    damage.push({
      kind: 'legacy-with-journal',
      file,
      what: `is in the older one-document format, but ${rotated ? paths.rotated : paths.journal} belongs to a later store`,
      fix: 'cannot tell which history is right: move the journal away to open the file as it is, or put back the snapshot the journal belongs to',
      fixable: false,
    });
    return { ...none, ...base, readable: true };
  }
  const replay = new JournalReplay(base.data, base.seq, snapshotKnown);
  if (!base.legacy) {
    if (rotated) await replay.read(paths.rotated, false);
    await replay.read(paths.journal, true);
  }
  if (!snapshotKnown) damage.unshift(snapshotMissing(file, replay.seq, journalSize, rotatedSize));
  else if (!base.legacy && !journals && !starting)
    damage.unshift({
      kind: 'journal-missing',
      file: paths.journal,
      what: `is missing beside its snapshot (seq ${base.seq}): the commits made after that snapshot are gone, and nothing tells how many`,
      fix: `starts an empty journal: whatever the missing journal held after seq ${base.seq} is lost`,
      fixable: true,
    });
  const cut = replay.damage();
  if (cut) damage.push(cut);
  if (replay.tornTail) notes.push(tornTailNote(paths.journal, replay.tornTail));
  if (rotated && snapshotKnown)
    notes.push({
      kind: 'unfinished-compaction',
      file: paths.rotated,
      what: 'a compaction was interrupted',
      startUp: 'finishes it: writes a new snapshot holding it, then deletes it',
      fix: 'nothing to do: start-up finishes it',
      fixable: true,
    });
  if (starting && snapshotKnown && !startingSize)
    notes.push({
      kind: 'unfinished-start',
      file: paths.starting,
      what: 'a new snapshot was being written',
      startUp: 'writes it again, then makes this its journal',
      fix: 'nothing to do: start-up finishes it',
      fixable: true,
    });
  return {
    data: replay.data,
    seq: replay.seq,
    legacy: base.legacy,
    fresh: false,
    rotated,
    starting,
    readable: true,
    damage,
    notes,
    ...(replay.tornTail ? { tornTail: replay.tornTail } : {}),
  };
}

/**
 * Loads a journal store without changing a byte, or refuses it naming the file and where: only the
 * very last record may be unfinished or damaged (a crash in the middle of an append, never
 * acknowledged): it is reported in `tornTail`. A store is never silently reset.
 */
export async function loadJournalStore(file: string): Promise<LoadedJournalStore> {
  const inspection = await inspectJournalStore(file);
  const first = inspection.damage[0];
  if (first) throw damageError(file, first);
  return inspection;
}

/** The torn last record as doctor reports it and start-up warns of it. */
export function tornTailNote(journal: string, torn: TornTail): StoreDamage {
  return {
    kind: 'torn-tail',
    file: journal,
    at: lineAt(torn.line, torn.offset),
    what: `an unfinished last record (${torn.why})`,
    startUp:
      'cuts it off with a warning: a crash in the middle of an append leaves one, and that write was never acknowledged',
    fix: 'nothing to do: start-up cuts it off',
    fixable: true,
  };
}

function snapshotMissing(file: string, seq: number, journal?: number, rotated?: number): StoreDamage {
  const journals = [journal !== undefined ? `${file}.journal` : '', rotated !== undefined ? `${file}.journal.old` : '']
    .filter(Boolean)
    .join(' and ');
  return {
    kind: 'snapshot-missing',
    file,
    what: `is missing, but ${journals} ${journal !== undefined && rotated !== undefined ? 'are' : 'is'} there: a journal holds only the commits after its snapshot, so replaying it alone would lose what the snapshot held`,
    fix: `writes a snapshot from the journal's records alone (up to seq ${seq}): whatever the missing snapshot held is lost; restoring ${file} from a backup loses nothing`,
    fixable: true,
  };
}

function startingNotEmpty(path: string, size: number): StoreDamage {
  return {
    kind: 'starting-journal-not-empty',
    file: path,
    what: `holds ${size} bytes, but scheme-sim only ever leaves it empty: it is not part of the store`,
    fix: 'replaces it with an empty journal (nothing of the store is in it)',
    fixable: true,
  };
}

/** The damage of a snapshot or older file that cannot be read. */
function baseDamage(file: string, err: Error): StoreDamage {
  if (err instanceof SnapshotDamaged)
    return {
      kind: 'snapshot-damaged',
      file,
      at: lineAt(err.line, err.offset),
      what: err.why,
      fix: `cannot repair it (a snapshot is written whole and renamed into place; a damaged one was changed since): restore ${file} from a backup`,
      fixable: false,
    };
  return {
    kind: err instanceof NotAStore ? 'not-a-store' : 'unreadable',
    file,
    what: err.message,
    fix: `cannot repair it: restore ${file} from a backup`,
    fixable: false,
  };
}

class NotAStore extends StoreError {}

async function loadBase(file: string): Promise<{ data: StoreData; seq: number; legacy: boolean }> {
  let head: string;
  try {
    const handle = await open(file, 'r');
    try {
      const buf = Buffer.alloc(64);
      const { bytesRead } = await handle.read(buf, 0, 64, 0);
      head = buf.toString('utf8', 0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw new StoreError(`cannot be read (${(err as Error).message})`);
  }
  if (isSnapshotStart(head)) return { ...(await readSnapshot(file)), legacy: false };
  return { data: await readLegacy(file), seq: 0, legacy: true };
}

/** The older format: the whole store as one JSON document (it could not pass V8's longest string, so it fits in one). */
async function readLegacy(file: string): Promise<StoreData> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new NotAStore(`is not a scheme-sim store: not a snapshot, and not JSON (${(err as Error).message})`);
  }
  if (!isStoreDocument(raw))
    throw new NotAStore('is not a scheme-sim store (expected a snapshot or {format: 1, meta, collections})');
  return fromDocument(raw);
}

/** A file's size, or undefined when it does not exist. */
async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StoreError(`cannot read ${path}: ${(err as Error).message}`);
  }
}

/** Cuts a torn last record off the journal, so the next append starts on a clean line. */
export async function cutTornTail(journal: string, offset: number): Promise<void> {
  await truncate(journal, offset);
}
