import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
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

/**
 * An exclusive lock on a data file: `<file>.lock`, created with O_EXCL, holding the pid of the
 * simulator that has the file open. A lock whose process is gone (a crash, a kill -9) is stale and
 * taken over with a warning; a live one stops the open with an error naming the file.
 */
export class FileLock {
  readonly path: string;
  #held = true;

  private constructor(path: string) {
    this.path = path;
  }

  static acquire(file: string, warn: (message: string) => void = (m) => console.warn(m)): FileLock {
    const path = `${file}.lock`;
    // Twice at most: once, and once more after removing a stale lock (another process taking it
    // over at the same moment wins the O_EXCL race, and we fail on the second look).
    for (let attempt = 0; ; attempt++) {
      let fd: number;
      try {
        fd = openSync(path, 'wx');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new StoreError(`cannot lock data file ${file}: ${(err as Error).message}`);
        }
        const holder = FileLock.#holder(path);
        if (attempt > 0 || (holder !== undefined && processAlive(holder))) {
          throw new StoreError(
            `data file ${file} is in use by another simulator${holder !== undefined ? ` (pid ${holder})` : ''}; stop it or choose another --data file (lock ${path})`,
          );
        }
        warn(
          `scheme-sim: taking over the stale lock ${path}${holder !== undefined ? ` of pid ${holder}, which is no longer running` : ' (it names no pid)'}`,
        );
        try {
          unlinkSync(path);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
            throw new StoreError(`cannot remove the stale lock ${path}: ${(e as Error).message}`);
        }
        continue;
      }
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      return new FileLock(path);
    }
  }

  /** The pid in a lock file, or undefined when it holds none (or is gone). */
  static #holder(path: string): number | undefined {
    try {
      const pid = Number(readFileSync(path, 'utf8').trim());
      return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  /** Removes the lock file if it is still ours; idempotent. */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    if (FileLock.#holder(this.path) !== process.pid) return;
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to release.
    }
  }
}
