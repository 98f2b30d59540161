// Two simulators writing one data file would corrupt it: the lock file that lets only one open it,
// and that tells a crashed holder from a live one.
import { closeSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { journalPaths } from './journal-paths.ts';
import { damageError, type StoreDamage } from './store-damage.ts';
import { StoreError } from './store-error.ts';

/** Whether a process with this pid runs (EPERM: it does, under another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What holds a store's lock file, as read without touching it. */
export type LockState =
  | { kind: 'free' }
  | { kind: 'live'; pid: number }
  | { kind: 'stale'; pid: number }
  | { kind: 'no-pid'; text: string }
  | { kind: 'not-a-file' };

export interface LockOptions {
  /** Told of a stale lock taken over; default console.warn. */
  warn?: (message: string) => void;
  /**
   * Also take over a lock that names no pid (`doctor --fix`), or any lock file whatever it names
   * (`--force-unlock`: the user says no simulator uses the store). Without it, a lock naming a live
   * process or no pid at all is refused.
   */
  force?: 'no-pid' | 'any';
}

/** The lock's state. A lock of ours always names a pid: it is written whole before it is linked into place. */
export function inspectLock(file: string): LockState {
  const path = journalPaths(file).lock;
  let text: string;
  try {
    if (!statSync(path).isFile()) return { kind: 'not-a-file' };
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'free' };
    throw new StoreError(`cannot read the lock ${path}: ${(err as Error).message}`);
  }
  const trimmed = text.trim();
  const pid = /^[1-9][0-9]{0,9}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(pid)) return { kind: 'no-pid', text };
  return processAlive(pid) ? { kind: 'live', pid } : { kind: 'stale', pid };
}

/** The lock as doctor reports it (undefined when free); refused ones as start-up refuses them. */
export function lockDamage(file: string, state: LockState = inspectLock(file)): StoreDamage | undefined {
  const path = journalPaths(file).lock;
  switch (state.kind) {
    case 'free':
    case 'not-a-file': // reported with the other paths of the wrong kind
      return undefined;
    case 'live':
      return {
        kind: 'lock-in-use',
        file: path,
        what: `data file ${file} is in use by another simulator (pid ${state.pid})`,
        fix: 'cannot repair a store a simulator has open: stop it, or choose another --data file',
        fixable: false,
      };
    case 'stale':
      return {
        kind: 'stale-lock',
        file: path,
        what: `names pid ${state.pid}, which is no longer running (a crash, a kill -9)`,
        startUp: 'takes it over with a warning',
        fix: 'nothing to do: start-up takes it over',
        fixable: true,
      };
    case 'no-pid':
      return {
        kind: 'lock-no-pid',
        file: path,
        what: `names no pid (it holds ${JSON.stringify(state.text.slice(0, 40))}): scheme-sim always writes its pid there, so nothing tells who holds the store`,
        fix: 'removes it (as `scheme-sim start --force-unlock` does): make sure no simulator uses the store first',
        fixable: true,
      };
  }
}

/**
 * An exclusive lock on a data file: `<file>.lock`, holding the pid of the simulator that has the
 * file open. It is written to a file of its own first and then hard-linked into place, which fails
 * if a lock is there: so a lock never exists without its pid. A lock whose process is gone (a
 * crash, a kill -9) is stale and taken over with a warning; a live one, one that names no pid, and
 * a path that is not a file stop the open with an error naming the lock (`force` takes over the
 * first two).
 */
export class FileLock {
  readonly path: string;
  readonly #file: string;
  #held = true;

  private constructor(file: string) {
    this.#file = file;
    this.path = journalPaths(file).lock;
  }

  static acquire(file: string, options: LockOptions = {}): FileLock {
    const path = journalPaths(file).lock;
    const warn = options.warn ?? ((m: string) => console.warn(m));
    // Twice at most: once, and once more after removing a stale lock (another process taking it
    // over at the same moment wins the race, and we fail on the second look).
    for (let attempt = 0; ; attempt++) {
      if (FileLock.#create(file, path)) return new FileLock(file);
      const state = inspectLock(file);
      if (state.kind === 'free') continue; // released meanwhile
      if (state.kind === 'not-a-file')
        throw new StoreError(`the lock ${path} of data file ${file} is not a file: move it out of the way by hand`);
      const takeOver =
        state.kind === 'stale' || options.force === 'any' || (options.force === 'no-pid' && state.kind === 'no-pid');
      if (attempt > 0 || !takeOver) throw FileLock.#refusal(file, state);
      warn(
        state.kind === 'stale'
          ? `scheme-sim: taking over the stale lock ${path} of pid ${state.pid}, which is no longer running`
          : `scheme-sim: taking over the lock ${path} (${state.kind === 'live' ? `of running pid ${state.pid}` : 'it names no pid'}), as asked`,
      );
      try {
        unlinkSync(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
          throw new StoreError(`cannot remove the lock ${path}: ${(e as Error).message}`);
      }
    }
  }

  /** Puts a lock naming this process in place; false when a lock is there already. */
  static #create(file: string, path: string): boolean {
    const own = `${path}.${process.pid}`;
    try {
      const fd = openSync(own, 'w', 0o600);
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      try {
        linkSync(own, path);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
        // A file system without hard links: an exclusive create, then the pid (a crash between
        // the two leaves a lock naming no pid, which is refused rather than guessed about).
        const fd = openSync(path, 'wx', 0o600);
        try {
          writeSync(fd, `${process.pid}\n`);
        } finally {
          closeSync(fd);
        }
      }
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw new StoreError(`cannot lock data file ${file}: ${(err as Error).message}`);
    } finally {
      try {
        unlinkSync(own);
      } catch {
        // Never made: nothing to remove.
      }
    }
  }

  /** Start-up's refusal: what doctor says of the same lock. */
  static #refusal(file: string, state: LockState): StoreError {
    const damage = lockDamage(file, state.kind === 'stale' ? { kind: 'live', pid: state.pid } : state);
    return damage ? damageError(file, damage) : new StoreError(`cannot lock data file ${file}: it was taken meanwhile`);
  }

  /** Removes the lock file if it is still ours; idempotent. */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    const state = inspectLock(this.#file);
    if (state.kind !== 'live' || state.pid !== process.pid) return;
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to release.
    }
  }
}
