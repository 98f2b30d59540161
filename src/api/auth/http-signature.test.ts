import { describe, expect, it } from 'vitest';
import { DATE_WINDOW_MS } from '../../signatures/cavage.ts';
import { ReplayCache } from './http-signature.ts';

describe('ReplayCache', () => {
  it('accepts a signature once, and again only after it left the window', () => {
    const cache = new ReplayCache();
    expect(cache.fresh('a', 0)).toBe(true);
    expect(cache.fresh('a', 1_000)).toBe(false);
    expect(cache.fresh('b', 2 * DATE_WINDOW_MS + 1)).toBe(true); // forgets 'a' on the way
    expect(cache.fresh('a', 2 * DATE_WINDOW_MS + 2)).toBe(true);
  });
});
