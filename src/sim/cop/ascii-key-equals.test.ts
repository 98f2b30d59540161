// asciiKeyEquals against the tokens() it stands in for, on random names made of the pieces that
// matter: titles, suffix phrases, apostrophes, `&`, punctuation, case and non-ASCII letters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiKeyEquals } from './ascii-key-equals.ts';
import { dropTitles, tokens } from './normalise.ts';

const PIECES = [
  'Mr',
  'mrs',
  'DR.',
  'Rt',
  'Hon',
  'm`r',
  'Limited',
  'LTD',
  'public',
  'Liability',
  'partnership',
  'company',
  'p',
  'l',
  'c',
  't',
  'd',
  'P.L.C.',
  'ltd',
  'plc',
  'and',
  '&',
  "'",
  '`',
  "O'",
  'Brien',
  'Smith',
  'JOHN',
  'a',
  'zoë',
  'José',
  '\t',
  '-',
  ',',
  '.',
  ' ',
  '  ',
  '0',
  '42',
  'Sam',
];
const name = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((parts) => parts.join(''));
const spaced = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((parts) => parts.join(' '));
const keyOf = (text: string) => dropTitles(tokens(text)).join('');

describe('asciiKeyEquals', () => {
  it('agrees with tokens() whenever it answers, against the name own key or another', () => {
    fc.assert(
      fc.property(fc.oneof(name, spaced), fc.oneof(name, spaced), (text, other) => {
        for (const key of [keyOf(text), keyOf(other)]) {
          const answer = asciiKeyEquals(text, key);
          if (answer !== undefined) expect(answer).toBe(keyOf(text) === key);
        }
      }),
      { numRuns: 20_000 },
    );
  });

  it('answers for the plain names most requests carry', () => {
    expect(asciiKeyEquals('Mr SAMANTHA   HOLDER', 'samanthaholder')).toBe(true);
    expect(asciiKeyEquals("Sean O'Brien", 'seanobrien')).toBe(true);
    expect(asciiKeyEquals('John Smith & Jane Smith', 'johnsmithandjanesmith')).toBe(true);
    expect(asciiKeyEquals('S Holder', 'samanthaholder')).toBe(false);
    expect(asciiKeyEquals('Samantha Holderson', 'samanthaholder')).toBe(false);
  });

  it('leaves to tokens() what it cannot read by index', () => {
    expect(asciiKeyEquals('Acme Limited', 'acmeltd')).toBeUndefined();
    expect(asciiKeyEquals('Public Limited Company', 'plc')).toBeUndefined();
    expect(asciiKeyEquals('Zoë Holder', 'zoeholder')).toBeUndefined();
    expect(asciiKeyEquals('Mr Dr', 'mrdr')).toBeUndefined();
  });
});
