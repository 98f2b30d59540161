import { open } from 'node:fs/promises';

const CHUNK = 4 * 1024 * 1024;

/** What is left after the last line feed of a file: bytes of a line that was never finished. */
export interface LineTail {
  /** Byte offset where the unfinished bytes start (the file's size when there are none). */
  offset: number;
  /** The unfinished bytes as text ('' when the file ends with a line feed). */
  text: string;
}

/**
 * Calls `onLine` with every line feed-terminated line of a file and the byte offset it starts at,
 * reading in large chunks so that a file of any size is never one string. Returns the unfinished
 * tail, if any. A missing file has no lines.
 */
export async function forEachLine(path: string, onLine: (line: string, offset: number) => void): Promise<LineTail> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { offset: 0, text: '' };
    throw err;
  }
  try {
    let carry: Buffer = Buffer.alloc(0);
    let carryOffset = 0; // the file offset of carry[0]
    const chunk = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) break;
      const buf =
        carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
        onLine(buf.toString('utf8', start, nl), carryOffset + start);
        start = nl + 1;
      }
      // The unfinished line is copied: `chunk` is reused by the next read.
      carry = Buffer.from(buf.subarray(start));
      carryOffset += start;
    }
    return { offset: carryOffset, text: carry.toString('utf8') };
  } finally {
    await handle.close();
  }
}
