import { open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { syncDirectory } from './sync-directory.ts';

/**
 * A lowdb adapter for one JSON file that survives a machine crash, not only a process crash. A
 * write goes to a temporary file beside the data file, which is flushed to the disk (fsync)
 * before it is renamed over the data file, and the directory is flushed after the rename. So the
 * file on disk is always either the previous state or the new one, whole, and a 2xx released after
 * a write stays true after a power cut. lowdb's own DataFile renames without flushing: the rename
 * can reach the disk before the data it points at.
 *
 * The data is serialised synchronously when `write` is called (before its first await), so a write
 * holds exactly the state at the moment it was asked for. Writes must not overlap: the store runs
 * one at a time.
 */
export class DurableJsonFile<T> implements Adapter<T> {
  readonly file: string;
  readonly #temp: string;

  constructor(file: string) {
    this.file = file;
    this.#temp = join(dirname(file), `.${basename(file)}.tmp`);
  }

  /** The parsed file, or null when there is none. */
  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return JSON.parse(text) as T;
  }

  async write(data: T): Promise<void> {
    // Compact JSON: the file can hold 100k accounts, and indentation doubles the bytes written.
    const text = JSON.stringify(data);
    // Owner-only: the file holds the token signing key and webhook secrets.
    const handle = await open(this.#temp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } catch (err) {
      await handle.close();
      await unlink(this.#temp).catch(() => undefined); // a half-written temp file is worth nothing
      throw err;
    }
    await handle.close();
    await rename(this.#temp, this.file);
    await syncDirectory(dirname(this.file));
  }
}
