// Text normalisation of names: what "the same name" means before any scoring.

/** Letters NFKD does not decompose into a base letter plus marks. */
const FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** Titles dropped at the start of a person's name (after folding, so "Mrs." is "mrs"). */
export const TITLES = new Set([
  'mr',
  'mrs',
  'miss',
  'ms',
  'mx',
  'master',
  'dr',
  'doctor',
  'sir',
  'dame',
  'lord',
  'lady',
  'prof',
  'professor',
  'rev',
  'revd',
  'reverend',
  'fr',
  'father',
  'sr',
  'sister',
  'capt',
  'captain',
  'col',
  'major',
  'maj',
  'rt',
  'hon',
  'cllr',
]);

/** Business suffixes and their canonical token. Multi-word forms are matched before single ones. */
const SUFFIX_PHRASES: Array<[string[], string]> = [
  [['public', 'limited', 'company'], 'plc'],
  [['limited', 'liability', 'partnership'], 'llp'],
  [['limited', 'partnership'], 'lp'],
  [['p', 'l', 'c'], 'plc'],
  [['l', 'l', 'p'], 'llp'],
  [['l', 't', 'd'], 'ltd'],
  [['limited'], 'ltd'],
  [['ltd'], 'ltd'],
  [['plc'], 'plc'],
  [['llp'], 'llp'],
];
export const SUFFIXES = new Set(['ltd', 'plc', 'llp', 'lp']);
const PHRASE_STARTS = new Set(SUFFIX_PHRASES.map(([phrase]) => phrase[0]!));

/**
 * Unicode NFKD without marks, lower case, `&` as "and", apostrophes dropped (O'Brien = OBrien),
 * every other punctuation a space, whitespace collapsed.
 */
export function fold(text: string): string {
  // Plain ASCII (most names) needs no Unicode decomposition.
  // Invisible format characters (zero-width space/joiner, BOM, bidi marks) are dropped, not spaced:
  // pasted names carry them inside words.
  const decomposed = /^[\x20-\x7e]*$/.test(text) ? text : text.normalize('NFKD').replace(/[\p{M}\p{Cf}]/gu, '');
  return decomposed
    .replace(/[ßæœøłđðþı]/gi, (ch) => FOLDS[ch.toLowerCase()] ?? ch)
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’‘`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Each Latin-1 letter whose NFKD is an ASCII letter and marks (À is A and a grave accent, ç is c and
 * a cedilla), as that letter; '' for every other code (Æ, ß, Ø, ×, and all below À): worked out from
 * NFKD itself, so it reads as `decomposedWords` would.
 */
const LATIN1_BASE: readonly string[] = Array.from({ length: 0x100 }, (_, code) => {
  if (code < 0xc0) return '';
  const base = String.fromCharCode(code).normalize('NFKD').replace(/\p{M}/gu, '');
  return /^[A-Za-z]$/.test(base) ? base : '';
});

/**
 * fold(text).split(' ') for plain ASCII text in one pass (the common case on the hot path): runs of
 * letters and digits are sliced, not built a character at a time, and lower-cased once per word.
 * A Latin-1 letter with marks (José, Zoë, Álvarez) is read as its base letter, as NFKD without its
 * marks reads it: no Unicode normalisation or expression run over the name. Undefined for anything
 * else past ASCII.
 */
function asciiWords(text: string): string[] | undefined {
  const words: string[] = [];
  let word = ''; // the word so far, across apostrophes (O'Brien is one word)
  let start = -1; // where the current run of letters and digits began
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32; // a space after the end flushes the last word
    if (code > 0x7e) {
      const base = code <= 0xff ? LATIN1_BASE[code]! : '';
      if (base === '') return undefined;
      if (start >= 0) word = word === '' ? text.slice(start, i) : word + text.slice(start, i);
      word += base;
      start = -1;
      continue;
    }
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      word = word === '' ? text.slice(start, i) : word + text.slice(start, i);
      start = -1;
    }
    if (code === 39 || code === 96) continue; // apostrophes and backticks join
    if (word !== '') {
      words.push(word.toLowerCase());
      word = '';
    }
    if (code === 38) words.push('and');
  }
  return words;
}

/**
 * fold(text).split(' ') when the text is plain ASCII once decomposed (Zoë, José): fold would run
 * its replacements on that same decomposition, and on plain ASCII asciiWords gives their result.
 */
function decomposedWords(text: string): string[] | undefined {
  return asciiWords(text.normalize('NFKD').replace(/[\p{M}\p{Cf}]/gu, ''));
}

/** Folded tokens with business suffixes unified (Limited → ltd, P.L.C. → plc, ...). */
export function tokens(text: string): string[] {
  const raw = asciiWords(text) ?? decomposedWords(text) ?? fold(text).split(' ').filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < raw.length; ) {
    const hit = PHRASE_STARTS.has(raw[i]!)
      ? SUFFIX_PHRASES.find(([phrase]) => phrase.every((p, k) => raw[i + k] === p))
      : undefined;
    if (hit) {
      out.push(hit[1]);
      i += hit[0].length;
    } else {
      out.push(raw[i]!);
      i++;
    }
  }
  return out;
}

/** Drops leading titles ("Rev Dr Jane Doe" → jane doe); a name made only of titles is kept whole. */
export function dropTitles(words: string[]): string[] {
  let i = 0;
  while (i < words.length && TITLES.has(words[i]!)) i++;
  return i === words.length ? words : words.slice(i);
}

/** The normalised form of a name as one string: tokens, titles dropped, joined by single spaces. */
export function normaliseName(text: string): string {
  return dropTitles(tokens(text)).join(' ');
}

/** Splits off the business suffixes at the end: ["acme", "ltd"] → body ["acme"], suffix ["ltd"]. */
export function splitSuffix(words: string[]): { body: string[]; suffix: string[] } {
  let end = words.length;
  while (end > 1 && SUFFIXES.has(words[end - 1]!)) end--;
  return { body: words.slice(0, end), suffix: words.slice(end) };
}
