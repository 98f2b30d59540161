import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, FAST_RETRY_SCHEDULE } from './retry-schedule.ts';
import { parseRetrySchedule } from './retry-schedule-spec.ts';

describe('parseRetrySchedule', () => {
  it('names the two built-in schedules', () => {
    expect(parseRetrySchedule('default')).toBe(DEFAULT_RETRY_SCHEDULE);
    expect(parseRetrySchedule('fast')).toBe(FAST_RETRY_SCHEDULE);
  });

  it('reads waits with units, the last repeating, and an optional give-up time', () => {
    expect(parseRetrySchedule('0,250ms,5s,2m')).toEqual({
      delaysMs: [0, 250, 5000, 120_000],
      repeatMs: 120_000,
      giveUpAfterMs: DEFAULT_RETRY_SCHEDULE.giveUpAfterMs,
      jitter: DEFAULT_RETRY_SCHEDULE.jitter,
    });
    expect(parseRetrySchedule('0, 1, 1.5s/10m')).toMatchObject({ delaysMs: [0, 1000, 1500], giveUpAfterMs: 600_000 });
    expect(parseRetrySchedule('0')).toMatchObject({ delaysMs: [0], repeatMs: 1 });
  });

  it.each([
    ['', /must be default, fast, or waits/],
    ['0,,5s', /must be default, fast, or waits/],
    ['soon', /wait 1 "soon" is not a duration/],
    ['0,5x', /wait 2 "5x" is not a duration/],
    ['-1s', /wait 1 "-1s" is not a duration/],
    ['1s,8d', /wait 2 "8d" is not a duration/],
    ['1s,200h', /wait 2 "200h" is longer than a week/],
    ['1s/never', /give-up time "never" is not a duration/],
    ['1s/0', /give-up time must be more than 0/],
    ['1s/1m/2m', /more than one "\/"/],
  ])('refuses %j naming what is wrong', (spec, message) => {
    expect(() => parseRetrySchedule(spec)).toThrow(message);
  });
});
