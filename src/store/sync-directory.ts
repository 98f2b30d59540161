// A rename is durable only once its directory is flushed: the helper every atomic write of the store
// ends with, tolerant of systems that cannot flush one.
import { open } from 'node:fs/promises';

/** Flushes a directory's entries (the rename) to the disk. Some systems cannot open a directory for it: then the rename stands as the OS left it. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(dir, 'r');
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM') throw err;
  } finally {
    await handle.close();
  }
}
