// A journal store is several files beside the data file: their names in one place, and the check
// that none of them is a directory or pipe.
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { StoreDamage } from './store-damage.ts';

/** The files of a journal store at `file`: the snapshot itself, its journal, and a journal being compacted away. */
export function journalPaths(file: string) {
  return {
    snapshot: file,
    journal: `${file}.journal`,
    /** The journal a compaction rotated out; it is replayed before `journal` until the snapshot has it. */
    rotated: `${file}.journal.old`,
    /**
     * The empty journal of a snapshot being rewritten at start-up (or by `doctor --fix`): made
     * before the new snapshot and renamed over `journal` after it, so a snapshot is never found
     * without a journal of its own unless one went missing.
     */
    starting: `${file}.journal.new`,
    /** Where a store of the older one-document format is kept when it is migrated. */
    backup: `${file}.format1.bak`,
    /** The pid of the simulator that has the store open. */
    lock: `${file}.lock`,
    /** Where a snapshot is written before it is renamed over `snapshot`. */
    snapshotTemp: join(dirname(file), `.${basename(file)}.snapshot.tmp`),
  };
}

const KIND_NAMES: Array<[test: (s: Awaited<ReturnType<typeof stat>>) => boolean, name: string]> = [
  [(s) => s.isDirectory(), 'a directory'],
  [(s) => s.isFIFO(), 'a named pipe'],
  [(s) => s.isSocket(), 'a socket'],
  [(s) => s.isCharacterDevice(), 'a character device'],
  [(s) => s.isBlockDevice(), 'a block device'],
];

/**
 * Every path of the store that exists but is not a regular file (a directory, a pipe: reading one
 * fails with EISDIR or blocks forever), or cannot be looked at. Symbolic links are followed.
 */
export async function wrongKindDamage(file: string): Promise<StoreDamage[]> {
  const damage: StoreDamage[] = [];
  for (const path of Object.values(journalPaths(file))) {
    let kind: string | undefined;
    try {
      const s = await stat(path);
      if (s.isFile()) continue;
      kind = KIND_NAMES.find(([test]) => test(s))?.[1] ?? 'not a regular file';
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      damage.push({
        kind: 'unreadable',
        file: path,
        what: `cannot be looked at (${(err as Error).message})`,
        fix: `cannot repair it: make ${path} readable, or move what is in its way`,
        fixable: false,
      });
      continue;
    }
    damage.push({
      kind: 'wrong-kind',
      file: path,
      what: `is ${kind}, not a file`,
      fix: `cannot repair it: move ${path} out of the way by hand (nothing of the store is in it)`,
      fixable: false,
    });
  }
  return damage;
}
