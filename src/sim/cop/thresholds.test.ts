import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, matchThresholds } from './thresholds.ts';

describe('match thresholds', () => {
  it('are the defaults with the given fields over them, frozen', () => {
    expect(matchThresholds()).toEqual(DEFAULT_THRESHOLDS);
    const t = matchThresholds({ typoMinJaroWinkler: 0.9, typoEditsByLength: [{ minLength: 5, edits: 1 }] });
    expect(t).toEqual({
      ...DEFAULT_THRESHOLDS,
      typoMinJaroWinkler: 0.9,
      typoEditsByLength: [{ minLength: 5, edits: 1 }],
    });
    expect(Object.isFrozen(t)).toBe(true);
    expect(Object.isFrozen(t.typoEditsByLength[0])).toBe(true);
    // A field given as undefined is left at its default.
    expect(matchThresholds({ shortenedMinLength: undefined })).toEqual(DEFAULT_THRESHOLDS);
  });

  it('refuse a field out of range, not a number or unknown, naming it', () => {
    const refused: Array<[object, RegExp]> = [
      [{ typoMinJaroWinkler: Number.NaN }, /matchThresholds\.typoMinJaroWinkler must be a number from 0 to 1/],
      [{ typoMinJaroWinkler: '0.9' }, /matchThresholds\.typoMinJaroWinkler /],
      [{ jaroWinklerPrefixScale: 0.3 }, /matchThresholds\.jaroWinklerPrefixScale must be a number from 0 to 0\.25/],
      [{ jaroWinklerMaxPrefix: 4.5 }, /matchThresholds\.jaroWinklerMaxPrefix must be a whole number/],
      [{ jaroWinklerMaxPrefix: 10, jaroWinklerPrefixScale: 0.2 }, /jaroWinklerPrefixScale × jaroWinklerMaxPrefix/],
      [{ shortenedMinLength: 0 }, /matchThresholds\.shortenedMinLength must be a whole number from 1 to 100/],
      [{ shortenedMinLength: Number.POSITIVE_INFINITY }, /matchThresholds\.shortenedMinLength /],
      [{ typoEditsByLength: 2 }, /matchThresholds\.typoEditsByLength must be an array/],
      [{ typoEditsByLength: [null] }, /matchThresholds\.typoEditsByLength\[0\] must be/],
      [{ typoEditsByLength: [{ minLength: 4, edits: -1 }] }, /matchThresholds\.typoEditsByLength\[0\]\.edits /],
      [
        {
          typoEditsByLength: [
            { minLength: 8, edits: 2 },
            { minLength: 4, edits: 1 },
          ],
        },
        /matchThresholds\.typoEditsByLength\[1\]\.minLength must be a whole number from 9/,
      ],
      [{ typoMinJaroWinker: 0.9 }, /matchThresholds\.typoMinJaroWinker is not a threshold/],
      [
        { jaroWinklerPrefixScale: 0.2, jaroWinklerMaxPrefix: 6 },
        /jaroWinklerPrefixScale × jaroWinklerMaxPrefix must be at most 1/,
      ],
    ];
    for (const [changes, message] of refused)
      expect(() => matchThresholds(changes as never), JSON.stringify(changes)).toThrow(message);
  });

  it('takes a prefix product over 1 by rounding alone as the 1 a client meant', () => {
    // 0.1 as a generator writes it: 0.10000000000000002 × 10 is 1.0000000000000002 in binary.
    expect(
      matchThresholds({ jaroWinklerPrefixScale: 0.10000000000000002, jaroWinklerMaxPrefix: 10 }).jaroWinklerMaxPrefix,
    ).toBe(10);
  });
});
