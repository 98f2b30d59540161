// Start-up and `scheme-sim doctor` must give the same answer to a damaged store: the named kinds of
// damage (docs/store.md's table) and the messages both print.
import { StoreError } from './store-error.ts';

/**
 * The cases of docs/store.md's table "Damaged stores", by name: each has a row there, a test
 * (src/cli/doctor-damage.test.ts), and the same answer from start-up and from `scheme-sim doctor`.
 */
export const DAMAGE_KINDS = [
  'wrong-kind',
  'unreadable',
  'not-a-store',
  'snapshot-damaged',
  'snapshot-missing',
  'journal-missing',
  'legacy-with-journal',
  'damaged-line',
  'not-a-record',
  'sequence-gap',
  'starting-journal-not-empty',
  'lock-no-pid',
  'lock-in-use',
  'torn-tail',
  'stale-lock',
  'unfinished-compaction',
  'unfinished-start',
] as const;

export type DamageKind = (typeof DAMAGE_KINDS)[number];

/** Something wrong with a journal store's files, found before anything was written. */
export interface StoreDamage {
  kind: DamageKind;
  /** The file it is in. */
  file: string;
  /** Where in the file: `line 7 (seq 43), byte offset 18304`; absent when it is the whole file. */
  at?: string;
  /** What is wrong. */
  what: string;
  /**
   * What start-up does about it itself (with a warning), or undefined when start-up refuses the
   * store and changes nothing.
   */
  startUp?: string;
  /** What `scheme-sim doctor --fix` does about it and what that drops, or why it cannot. */
  fix: string;
  /** False when `--fix` cannot repair it (a backup has to be restored, or a path moved by hand). */
  fixable: boolean;
}

/** `data/sim.json.journal at line 7 (seq 43), byte offset 18304: …`. */
export function describeDamage(d: StoreDamage): string {
  return `${d.file}${d.at ? ` at ${d.at}` : ''}: ${d.what}`;
}

/** Where a line is, for messages: `line 7 (seq 43), byte offset 18304`. */
export function lineAt(line: number, offset: number, seq?: number): string {
  return `line ${line}${seq !== undefined ? ` (seq ${seq})` : ''}, byte offset ${offset}`;
}

/** The error that stops start-up on damage it does not repair itself: the file, where, what, and what doctor would do. */
export function damageError(dataFile: string, d: StoreDamage): StoreError {
  const doctor = `\`scheme-sim doctor --data ${dataFile}\` reports it`;
  return new StoreError(
    `${describeDamage(d)}; nothing was changed (${doctor}; ${d.fixable ? `--fix ${d.fix}` : d.fix})`,
  );
}
