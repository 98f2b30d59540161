import { describe, expect, it } from 'vitest';
import { isTypo } from './compare.ts';
import { editDistance, jaro, jaroWinkler } from './similarity.ts';
import { allowedEdits } from './thresholds.ts';

describe('string similarity', () => {
  it('computes the textbook Jaro and Jaro-Winkler values', () => {
    expect(jaro('martha', 'marhta')).toBeCloseTo(0.9444, 4);
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.9611, 4);
    expect(jaroWinkler('dixon', 'dicksonx')).toBeCloseTo(0.8133, 4);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
    expect(jaroWinkler('same', 'same')).toBe(1);
  });

  it('counts edits with adjacent swaps as one', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('john', 'jonh')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('allows edits by length and calls typos only within both limits', () => {
    expect([3, 4, 7, 8].map(allowedEdits)).toEqual([0, 1, 1, 2]);
    expect(isTypo('smith', 'smyth')).toBe(true);
    expect(isTypo('smith', 'smithers')).toBe(false);
    expect(isTypo('tom', 'tim')).toBe(false);
    expect(isTypo('montgomery', 'montgomerie')).toBe(true);
  });
});
