// Whether a plain ASCII name has a given spacing-free key, read off the text by index: a name new
// to the matcher runs with cold caches, where every word array, string and hash look-up it makes
// costs a cache miss or several (bench/RESULTS.md); an exact name needs none of them.
import { TITLES } from './normalise.ts';

/**
 * The titles and the suffix words read here in one string, ` mr mrs ... `, compared a character at
 * a time: a few cache lines, where a list of strings is a cold miss per string (no word string is
 * made to look one up either).
 */
const TITLE_WORDS = ` ${[...TITLES].join(' ')} `;
const SUFFIX_STARTS = ' limited public ';

function isAlnum(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
}

/** Apostrophes and backticks join the letters either side into one word (O'Brien is obrien). */
function isJoiner(code: number): boolean {
  return code === 39 || code === 96;
}

/** Whether text[start, end) spells lower[from, to) (lower case) once joiners are left out and case folded. */
function wordIs(text: string, start: number, end: number, lower: string, from: number, to: number): boolean {
  let k = from;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (isJoiner(code)) continue;
    if (k >= to || (code | 0x20) !== lower.charCodeAt(k)) return false;
    k++;
  }
  return k === to;
}

/** Whether text[start, end) is one of the space-separated words of `words` (joiners left out, case folded). */
function isOneOf(text: string, start: number, end: number, words: string): boolean {
  for (let at = 1; at < words.length; ) {
    const next = words.indexOf(' ', at);
    if (wordIs(text, start, end, words, at, next)) return true;
    at = next + 1;
  }
  return false;
}

/**
 * `dropTitles(tokens(text)).join('') === key`, or undefined when this cannot tell without tokens():
 * text not plain ASCII, a word that starts a suffix phrase which changes the key ("limited" is ltd,
 * "public limited company" plc; "p l c" is plc either way), or a name made only of titles.
 * Words are as tokens() reads ASCII: runs of letters and digits joined across apostrophes, `&` the
 * word "and", anything else a space. A mismatch before the end is final: the words before such a
 * phrase are the key's first letters whatever follows.
 */
export function asciiKeyEquals(text: string, key: string): boolean | undefined {
  const n = text.length;
  let k = 0; // letters of the key matched so far
  let leading = true; // still dropping titles
  let i = 0;
  for (;;) {
    let code = 0;
    while (i < n) {
      code = text.charCodeAt(i);
      if (code > 0x7e) return undefined;
      if (isAlnum(code) || code === 38) break;
      i++;
    }
    if (i >= n) break;
    if (code === 38) {
      leading = false;
      if (!key.startsWith('and', k)) return false;
      k += 3;
      i++;
      continue;
    }
    const start = i;
    let end = i;
    while (i < n) {
      code = text.charCodeAt(i);
      if (code > 0x7e) return undefined;
      if (isAlnum(code)) end = ++i;
      else if (isJoiner(code)) i++;
      else break;
    }
    // A word a suffix phrase that changes the key starts with: what it becomes depends on the words after it.
    if (isOneOf(text, start, end, SUFFIX_STARTS)) return undefined;
    if (leading && isOneOf(text, start, end, TITLE_WORDS)) continue;
    leading = false;
    for (let j = start; j < end; j++) {
      const c = text.charCodeAt(j);
      if (isJoiner(c)) continue;
      const lower = c >= 65 && c <= 90 ? c | 0x20 : c;
      if (k >= key.length || key.charCodeAt(k) !== lower) return false;
      k++;
    }
  }
  if (leading) return undefined;
  return k === key.length;
}
