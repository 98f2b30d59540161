// Journals can be larger than a JavaScript string may be: reading a file line by line in chunks, with
// each line's byte offset for the messages that name it.
import { isAscii } from 'node:buffer';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

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
export async function forEachLine(
  path: string,
  onLine: (line: string, offset: number) => void,
  chunkSize = CHUNK,
): Promise<LineTail> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { offset: 0, text: '' };
    throw err;
  }
  try {
    // Each chunk is decoded once and cut into lines as strings: a million lines decoded one by one
    // cost seconds. Byte offsets (for messages and cutting a torn tail) follow the characters while
    // the text is ASCII, and are counted per line when it is not.
    const decoder = new StringDecoder('utf8');
    const chunk = Buffer.allocUnsafe(chunkSize);
    let carry = '';
    let carryOffset = 0; // the file offset of carry[0]
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunkSize, null);
      if (bytesRead === 0) break;
      const decoded = decoder.write(chunk.subarray(0, bytesRead));
      const text = carry.length > 0 ? carry + decoded : decoded;
      const ascii = isAscii(chunk.subarray(0, bytesRead)) && Buffer.byteLength(carry) === carry.length;
      let start = 0;
      let offset = carryOffset;
      for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
        const line = text.slice(start, nl);
        onLine(line, offset);
        offset += (ascii ? line.length : Buffer.byteLength(line)) + 1;
        start = nl + 1;
      }
      carry = text.slice(start);
      carryOffset = offset;
    }
    carry += decoder.end();
    return { offset: carryOffset, text: carry };
  } finally {
    await handle.close();
  }
}
