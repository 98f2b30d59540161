import { describe, expect, it } from 'vitest';
import { percentile } from './store-advance.ts';

describe('percentile', () => {
  it('is the nearest-rank value, whatever the order of the samples', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
  });

  it('is NaN with no samples', () => {
    expect(percentile([], 99)).toBeNaN();
  });
});
