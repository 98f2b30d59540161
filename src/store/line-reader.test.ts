import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { forEachLine } from './line-reader.ts';

const dir = mkdtempSync(join(tmpdir(), 'line-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('forEachLine', () => {
  const lines = ['{"a":1}', 'Zoë ✓ naïve', '', '🙂 two-code-unit', 'plain ascii again', 'café'];

  it.each([3, 5, 7, 64, 4 * 1024 * 1024])(
    'gives every line with its byte offset, across chunks of %i bytes cutting characters',
    async (chunk) => {
      const file = join(dir, `lines-${chunk}.txt`);
      const text = `${lines.join('\n')}\n${'unfinished ✓'}`;
      writeFileSync(file, text);
      const seen: Array<[string, number]> = [];
      const tail = await forEachLine(file, (line, offset) => seen.push([line, offset]), chunk);
      let offset = 0;
      const expected = lines.map((line) => {
        const at = offset;
        offset += Buffer.byteLength(line) + 1;
        return [line, at];
      });
      expect(seen).toEqual(expected);
      expect(tail).toEqual({ offset, text: 'unfinished ✓' });
    },
  );

  it('has no lines for a missing file', async () => {
    expect(await forEachLine(join(dir, 'missing'), () => undefined)).toEqual({ offset: 0, text: '' });
  });
});
