import { describe, expect, it } from 'vitest';
import { checkSchedule, DEFAULT_RETRY_SCHEDULE, delayBefore, nextAttemptAt } from './retry-schedule.ts';

const H = 3_600_000;
const mid = () => 0.5; // no jitter
const low = () => 0; // -jitter
const high = () => 0.999999; // +jitter

describe('retry schedule', () => {
  it('follows ≈ 0 s, 5 s, 30 s, 2 min, 10 min, 1 h, then hourly', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => delayBefore(DEFAULT_RETRY_SCHEDULE, n, mid))).toEqual([
      0,
      5000,
      30000,
      120000,
      600000,
      H,
      H,
      H,
    ]);
  });

  it('spreads each delay by at most ±20%', () => {
    expect(delayBefore(DEFAULT_RETRY_SCHEDULE, 2, low)).toBe(4000);
    expect(delayBefore(DEFAULT_RETRY_SCHEDULE, 2, high)).toBe(6000);
    expect(delayBefore(DEFAULT_RETRY_SCHEDULE, 1, high)).toBe(0);
  });

  it('gives up once the next attempt would fall more than 24 h after storing', () => {
    expect(nextAttemptAt(DEFAULT_RETRY_SCHEDULE, 0, 22 * H, 30, mid)).toBe(23 * H);
    expect(nextAttemptAt(DEFAULT_RETRY_SCHEDULE, 0, 23 * H, 31, mid)).toBe(24 * H);
    expect(nextAttemptAt(DEFAULT_RETRY_SCHEDULE, 0, 24 * H, 32, mid)).toBeNull();
  });

  it('rejects a schedule that makes no sense', () => {
    expect(() => checkSchedule({ ...DEFAULT_RETRY_SCHEDULE, delaysMs: [] })).toThrow(/delaysMs/);
    expect(() => checkSchedule({ ...DEFAULT_RETRY_SCHEDULE, repeatMs: 0 })).toThrow(/repeatMs/);
    expect(() => checkSchedule({ ...DEFAULT_RETRY_SCHEDULE, jitter: 1 })).toThrow(/jitter/);
  });
});
