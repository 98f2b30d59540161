// What `scheme-sim doctor` reads and repairs: every problem of a data file found without opening a
// store, and a repair that keeps a backup.
import { copyFile } from 'node:fs/promises';
import { FileLock, inspectLock, type LockState, lockDamage } from './file-lock.ts';
import { forgetSecrets, lostSecrets, type SecretSpec } from './issued-secrets.ts';
import { inspectJournalStore, type JournalInspection } from './journal-files.ts';
import { journalPaths, wrongKindDamage } from './journal-paths.ts';
import { rewriteStore } from './journal-rewrite.ts';
import { describeProblem, type LoadProblem, loadProblems, META_COLLECTION, type RecordCheck } from './load-check.ts';
import { damageError, describeDamage, type StoreDamage } from './store-damage.ts';
import { StoreError } from './store-error.ts';

export interface Examination {
  file: string;
  records: number;
  collections: number;
  /** What start-up refuses (docs/store.md, "Damaged stores"): the files, where, and what `--fix` would do. */
  damage: StoreDamage[];
  /** What start-up finishes or cuts off itself, with a warning. */
  notes: StoreDamage[];
  /** Records, meta keys and lost secrets of the data that can be proved whole (up to any damage). */
  problems: LoadProblem[];
  /**
   * The running simulator whose lock holds the store (its damage is `lock-in-use`): start-up
   * refuses the file while it runs, and --fix waits for it, but the store itself is not at fault.
   */
  heldBy?: { pid: number; lock: string };
}

export interface DoctorOptions {
  /** The meta keys that hold secrets (a lost one is a problem). */
  secrets?: readonly SecretSpec[];
}

/** The store's files as start-up reads them (and the lock, unless doctor holds it); nothing is written. */
async function inspect(file: string, lockState?: LockState): Promise<JournalInspection> {
  const inspection = await inspectJournalStore(file);
  if (inspection.fresh && !inspection.starting && inspection.damage.length === 0)
    throw new StoreError(`cannot read data file ${file}: there is no store there (no snapshot, no journal)`);
  const lock = lockState ? lockDamage(file, lockState) : undefined;
  if (lock) (lock.startUp ? inspection.notes : inspection.damage).push(lock);
  return inspection;
}

/** Every problem of a data file, read without opening a store (nothing is written). */
export async function examineDataFile(
  file: string,
  check: RecordCheck,
  options: DoctorOptions = {},
): Promise<Examination> {
  const lock = inspectLock(file);
  const { data, readable, damage, notes } = await inspect(file, lock);
  const problems = readable ? loadProblems(data, check, Number.POSITIVE_INFINITY, options.secrets).problems : [];
  const collections = Object.values(data.collections);
  return {
    file,
    records: collections.reduce((n, rows) => n + rows.size, 0),
    collections: collections.length,
    damage,
    notes,
    problems,
    ...(lock.kind === 'live' ? { heldBy: { pid: lock.pid, lock: journalPaths(file).lock } } : {}),
  };
}

export interface Repair {
  /** Damage of the store's files that was repaired, as doctor reported it. */
  repaired: StoreDamage[];
  dropped: LoadProblem[];
  /** Secrets the store had lost, taken off its ledger: start-up makes new ones. */
  forgotten: LoadProblem[];
  /**
   * The copy of the data file as it was, written before the repair (its journals are copied beside
   * it, `<journal>.<time>.bak`); none when only a lock naming no pid was removed.
   */
  backup?: string;
}

/**
 * Repairs what doctor reports, after copying every file of the store to `<file>.<time>.bak`:
 * keeps the store up to the first damaged line or gap of its journals, drops every record and meta
 * key that fails the check, takes lost secrets off the ledger, and writes it all as one snapshot
 * with an empty journal. Holds the data file's lock meanwhile (one naming no pid is removed), so a
 * running simulator's file is refused. Damage that cannot be repaired (a damaged snapshot, a path
 * of the wrong kind) is refused, changing nothing; a store with no problem is left alone (no backup either).
 */
export async function repairDataFile(
  file: string,
  check: RecordCheck,
  options: DoctorOptions & { now?: Date } = {},
): Promise<Repair | undefined> {
  const wrongKind = (await wrongKindDamage(file))[0];
  if (wrongKind) throw damageError(file, wrongKind);
  const lockState = inspectLock(file);
  const lock = FileLock.acquire(file, { force: 'no-pid', warn: () => undefined });
  try {
    const inspection = await inspect(file);
    const unfixable = inspection.damage.find((d) => !d.fixable);
    if (unfixable) throw damageError(file, unfixable);
    const { data, seq } = inspection;
    const lockRepair = lockState.kind === 'no-pid' ? lockDamage(file, lockState) : undefined;
    const repaired = lockRepair ? [...inspection.damage, lockRepair] : inspection.damage;
    const { problems } = loadProblems(data, check, Number.POSITIVE_INFINITY, options.secrets);
    if (repaired.length === 0 && problems.length === 0) return undefined;
    const repair: Repair = { repaired, dropped: [], forgotten: [] };
    if (inspection.damage.length === 0 && problems.length === 0) return repair; // the lock only: taking it over removed it
    const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
    const paths = journalPaths(file);
    // Every file of the store is copied as it is, then replaced by one snapshot and an empty journal.
    for (const path of [paths.snapshot, paths.journal, paths.rotated, paths.starting])
      await copyFile(path, `${path}.${stamp}.bak`).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    repair.backup = `${file}.${stamp}.bak`;
    // A lost secret is a problem with nothing to drop: it is forgotten below.
    repair.dropped = problems.filter((p) => p.collection !== META_COLLECTION || data.meta[p.id] !== undefined);
    for (const p of repair.dropped) {
      if (p.collection === META_COLLECTION) delete data.meta[p.id];
      else data.collections[p.collection]?.delete(p.id);
    }
    const secrets = options.secrets ?? [];
    repair.forgotten = lostSecrets(data, secrets).map(({ key, rule }) => ({
      collection: META_COLLECTION,
      id: key,
      rule,
    }));
    if (repair.forgotten.length > 0)
      forgetSecrets(
        data,
        repair.forgotten.map((p) => p.id),
        secrets,
      );
    await rewriteStore(file, seq, data);
    return repair;
  } finally {
    lock.release();
  }
}

/**
 * What `scheme-sim doctor` prints: one line per damage (what start-up does, what --fix would do),
 * note and problem, then a summary.
 */
export function examinationReport(exam: Examination): string[] {
  const { file, heldBy } = exam;
  // A running simulator's lock is no fault of the store: named on a line of its own, not counted.
  const damage = exam.damage.filter((d) => !(heldBy && d.kind === 'lock-in-use'));
  const lines = [
    ...damage.map((d) => `${describeDamage(d)}; start-up refuses it; ${fixText(d)}`),
    ...exam.notes.map((d) => `${describeDamage(d)}; start-up ${d.startUp}`),
    ...exam.problems.map((p) => `${file}: ${describeProblem(p)}`),
  ];
  if (heldBy)
    lines.push(
      `${heldBy.lock}: data file ${file} is in use by another simulator (pid ${heldBy.pid}): held by its lock, read as last written; another start-up refuses it and --fix waits until that simulator stops`,
    );
  const summary = `${exam.records} record${exam.records === 1 ? '' : 's'} in ${exam.collections} collection${exam.collections === 1 ? '' : 's'}`;
  const count = damage.length + exam.problems.length;
  const held = heldBy ? `; held by the running simulator pid ${heldBy.pid}` : '';
  if (count === 0) lines.push(`${file}: ${summary}, no problems${held}`);
  else {
    const fixable = damage.every((d) => d.fixable);
    lines.push(
      `${file}: ${count} problem${count === 1 ? '' : 's'} in ${summary}${held}; ` +
        (fixable
          ? `\`scheme-sim doctor --data ${file} --fix\` repairs ${count === 1 ? 'it' : 'them'} as each line says${heldBy ? ', once that simulator has stopped' : ''}`
          : '`--fix` cannot repair every one: see the lines above'),
    );
  }
  return lines;
}

function fixText(d: StoreDamage): string {
  return d.fixable ? `--fix ${d.fix}` : d.fix;
}
