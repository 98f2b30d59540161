import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { collectYoung } from './collect-young.ts';

const youngUsed = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_used_size;

describe('collectYoung', () => {
  it('leaves the young generation empty of what lives on: promoted, not copied by the next scavenge', () => {
    const kept = Array.from({ length: 50_000 }, (_, i) => ({ i }));
    expect(youngUsed()).toBeGreaterThan(0);
    collectYoung();
    expect(youngUsed()).toBeLessThan(64 * 1024);
    expect(kept[49_999]!.i).toBe(49_999);
  });
});
