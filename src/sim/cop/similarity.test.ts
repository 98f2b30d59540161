import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTypo } from './compare.ts';
import { editDistance, jaro, jaroWinkler } from './similarity.ts';
import { allowedEdits, DEFAULT_THRESHOLDS as T } from './thresholds.ts';

describe('string similarity', () => {
  it('computes the textbook Jaro and Jaro-Winkler values', () => {
    expect(jaro('martha', 'marhta')).toBeCloseTo(0.9444, 4);
    expect(jaroWinkler('martha', 'marhta', T)).toBeCloseTo(0.9611, 4);
    expect(jaroWinkler('dixon', 'dicksonx', T)).toBeCloseTo(0.8133, 4);
    expect(jaroWinkler('abc', 'xyz', T)).toBe(0);
    expect(jaroWinkler('same', 'same', T)).toBe(1);
  });

  it('counts edits with adjacent swaps as one', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('john', 'jonh')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('allows edits by length and calls typos only within both limits', () => {
    expect([3, 4, 7, 8].map((n) => allowedEdits(n, T))).toEqual([0, 1, 1, 2]);
    expect(isTypo('smith', 'smyth', T)).toBe(true);
    expect(isTypo('smith', 'smithers', T)).toBe(false);
    expect(isTypo('tom', 'tim', T)).toBe(false);
    expect(isTypo('montgomery', 'montgomerie', T)).toBe(true);
  });

  it('agrees with plain textbook versions on random pairs (scratch buffers reused across calls of any length)', () => {
    const refEdit = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) =>
        Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
      );
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          d[i]![j] = Math.min(
            d[i - 1]![j]! + 1,
            d[i]![j - 1]! + 1,
            d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
          );
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
            d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
        }
      }
      return d[a.length]![b.length]!;
    };
    const refJaro = (a: string, b: string): number => {
      if (a === b) return 1;
      if (!a.length || !b.length) return 0;
      const w = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
      const am: boolean[] = [];
      const bm: boolean[] = [];
      let m = 0;
      for (let i = 0; i < a.length; i++) {
        for (let j = Math.max(0, i - w); j <= Math.min(b.length - 1, i + w); j++) {
          if (!bm[j] && a[i] === b[j]) {
            am[i] = bm[j] = true;
            m++;
            break;
          }
        }
      }
      if (!m) return 0;
      const as = [...a].filter((_, i) => am[i]);
      const bs = [...b].filter((_, j) => bm[j]);
      const t = as.filter((ch, i) => ch !== bs[i]).length / 2;
      return (m / a.length + m / b.length + (m - t) / m) / 3;
    };
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const word = () =>
      Array.from({ length: Math.floor(rnd() * (rnd() < 0.05 ? 200 : 12)) }, () => 'abcdeh'[Math.floor(rnd() * 6)]).join(
        '',
      );
    for (let n = 0; n < 3000; n++) {
      const a = word();
      const b = rnd() < 0.3 ? a.slice(1) + 'a' : word();
      expect(editDistance(a, b), `${a} / ${b}`).toBe(refEdit(a, b));
      expect(jaro(a, b), `${a} / ${b}`).toBeCloseTo(refJaro(a, b), 12);
    }
  });

  it('tells a typo as the full definition does, skipping the scores when the lengths differ too much', () => {
    // The definition isTypo stood for before the length check: scored whatever the lengths.
    const scored = (a: string, b: string) => {
      const edits = allowedEdits(Math.min(a.length, b.length), T);
      return edits > 0 && jaroWinkler(a, b, T) >= T.typoMinJaroWinkler && editDistance(a, b) <= edits;
    };
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'e', 'h', 'n', 'o', 's'), maxLength: 14 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(isTypo(a, b, T)).toBe(scored(a, b));
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(word, fc.nat(13), fc.constantFrom('', 'a', 'ab', 'abc'), (a, at, extra) => {
        const b = a.slice(0, at) + extra + a.slice(at);
        expect(isTypo(a, b, T)).toBe(scored(a, b));
      }),
      { numRuns: 20_000 },
    );
  });
});
