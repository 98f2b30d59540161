// The request-name parts of names.ts read on every name verification, against the slower forms
// they replace.
import { describe, expect, it } from 'vitest';
import { lastWord } from './names.ts';

/** What freeForm read before: the regex split it replaces. */
const bySplit = (raw: string) => raw.trim().split(/\s+/).pop() ?? '';

describe('lastWord', () => {
  // Every code unit JavaScript's \s matches, and some it does not (zero-width space, NEL, a letter).
  const spaces = [...Array(0x10000).keys()].map((c) => String.fromCharCode(c)).filter((ch) => /\s/.test(ch));
  const others = ['\u200b', '\u0085', '\u180e', 'x', '-', "'", ','];

  it('is the last whitespace-separated word, for every kind of whitespace', () => {
    expect(spaces.length).toBeGreaterThan(20);
    for (const sp of [...spaces, ...others]) {
      for (const raw of [
        `Jane${sp}Smith`,
        `${sp}Jane Smith${sp}`,
        `Jane Smith-Jones${sp}${sp}`,
        `${sp}`,
        '',
        `O'Brien${sp}`,
        `Smith${sp}Jr${sp}`,
        `Zoë${sp}Álvarez`,
      ]) {
        expect(lastWord(raw), JSON.stringify(raw)).toBe(bySplit(raw));
      }
    }
  });
});
