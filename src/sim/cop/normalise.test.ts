import { describe, expect, it } from 'vitest';
import { dropTitles, fold, normaliseName, splitSuffix, tokens } from './normalise.ts';

describe('name normalisation', () => {
  it('folds marks, case, apostrophes and punctuation', () => {
    expect(fold('José Álvarez')).toBe('jose alvarez');
    expect(fold("O'Brien-Smith, Jr.")).toBe('obrien smith jr');
    expect(fold('Strauß & Søn')).toBe('strauss and son');
    expect(fold('  a \t b  ')).toBe('a b');
  });

  it('unifies business suffixes', () => {
    expect(tokens('Acme Limited')).toEqual(['acme', 'ltd']);
    expect(tokens('Acme P.L.C.')).toEqual(['acme', 'plc']);
    expect(tokens('Acme Public Limited Company')).toEqual(['acme', 'plc']);
    expect(tokens('Fisher Dunn Limited Liability Partnership')).toEqual(['fisher', 'dunn', 'llp']);
    expect(splitSuffix(['acme', 'ltd'])).toEqual({ body: ['acme'], suffix: ['ltd'] });
    expect(splitSuffix(['ltd'])).toEqual({ body: ['ltd'], suffix: [] });
  });

  it('drops leading titles only', () => {
    expect(normaliseName('Rev. Dr Jane Lord')).toBe('jane lord');
    expect(dropTitles(['mr'])).toEqual(['mr']);
    expect(normaliseName('Mr & Mrs Smith')).toBe('and mrs smith');
  });
});

describe('invisible characters', () => {
  it('drops zero-width and other format characters inside and between words', () => {
    expect(fold('Sam\u200Bantha\u200D Smith\uFEFF')).toBe('samantha smith');
    expect(fold('\u200EJosé Álvarez\u200F')).toBe('jose alvarez');
  });

  it('tokens are the folded words, whichever path finds them', () => {
    const names = [
      'Zoë Álvarez',
      "Mr ZOË O'BRIEN",
      'Zoë Smith-Jones & Alex',
      'Ærø Straße',
      'Łukasz Đoković',
      'Sam\u200Bantha Ñ',
      'ﬁsh ½ ①',
      'Müller\tß',
      'İstanbul ı I',
      'Ǆemal',
      '\u00AD-x',
      'a\u0301b c',
    ];
    for (const name of names) expect(tokens(name)).toEqual(fold(name).split(' ').filter(Boolean));
  });

  it('the fast path agrees with fold on ASCII mixed with every Latin-1 character', () => {
    // Latin-1 letters with marks are read by a table; the rest of Latin-1 (Æ, ß, ª, ², ×, NBSP)
    // still goes through NFKD and fold. Either way the words must be fold's.
    const ascii = "aZ9 '`&.-";
    for (const text of seededTexts(7, 3000, 16, (next) =>
      next() < 0.6 ? ascii[Math.floor(next() * ascii.length)]! : String.fromCharCode(0xa0 + Math.floor(next() * 0x60)),
    ))
      expectFoldsWords(text);
    expect(tokens('José ÁLVAREZ-Zoë')).toEqual(['jose', 'alvarez', 'zoe']);
  });

  it('the plain-ASCII fast path agrees with fold on any printable ASCII', () => {
    // Letters, digits, apostrophes, ampersands and punctuation in runs.
    const alphabet = "aZ9 '`&.-,/\t()AbCxyz0";
    for (const text of seededTexts(42, 2000, 24, (next) =>
      next() < 0.9
        ? alphabet[Math.floor(next() * alphabet.length)]!
        : String.fromCharCode(32 + Math.floor(next() * 95)),
    ))
      expectFoldsWords(text);
  });
});

/** `count` texts of up to `maxLength` characters, each made by `pick` from a small seeded generator. */
function seededTexts(seed: number, count: number, maxLength: number, pick: (next: () => number) => string): string[] {
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * maxLength);
    let text = '';
    for (let i = 0; i < length; i++) text += pick(next);
    return text;
  });
}

/** tokens(text) is fold's words; suffix phrases (ltd, p l c), which tokens unifies and fold does not, are skipped. */
function expectFoldsWords(text: string): void {
  const folded = fold(text).split(' ').filter(Boolean);
  if (folded.some((w) => ['limited', 'ltd', 'plc', 'llp', 'public', 'p', 'l'].includes(w))) return;
  expect(tokens(text), JSON.stringify(text)).toEqual(folded);
}
