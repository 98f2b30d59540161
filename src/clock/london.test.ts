import { describe, expect, it } from 'vitest';
import { londonDate, londonParts, londonTime } from './london.ts';

// The reference: Intl itself, asked every time (london.ts asks it once per UTC hour).
const reference = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
function intl(instant: Date) {
  const p: Record<string, string> = {};
  for (const part of reference.formatToParts(instant)) p[part.type] = part.value;
  return { date: `${p.year}-${p.month}-${p.day}`, hour: +p.hour!, minute: +p.minute!, second: +p.second! };
}

describe('London time', () => {
  it('agrees with Intl around every possible clock change from 1900 to 2199, to the second', () => {
    // UK clocks have changed at 01:00, 02:00 or 03:00 UTC (double summer time included), on any
    // day of the year in the past: every day of the range, a second either side of those hours.
    const mismatches: string[] = [];
    for (let day = Date.UTC(1900, 0, 1); day < Date.UTC(2200, 0, 1); day += 86_400_000)
      for (const ms of [day + 3_599_000, day + 3_600_000, day + 7_199_000, day + 7_200_000, day + 10_800_000]) {
        const instant = new Date(ms);
        const a = londonParts(instant);
        const b = intl(instant);
        if (a.date !== b.date || a.hour !== b.hour || a.minute !== b.minute || a.second !== b.second)
          mismatches.push(`${instant.toISOString()}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`);
      }
    expect(mismatches.slice(0, 5)).toEqual([]);
  }, 60_000);

  it('agrees with Intl at random instants of the supported range', () => {
    const from = Date.UTC(1900, 0, 1);
    const to = Date.UTC(2200, 0, 1);
    for (let i = 0; i < 20_000; i++) {
      const instant = new Date(from + Math.floor(Math.random() * (to - from)));
      expect(londonParts(instant), instant.toISOString()).toEqual(intl(instant));
    }
  });

  it('gives the London date of an instant near midnight in summer and winter', () => {
    expect(londonDate(new Date('2026-07-01T23:30:00Z'))).toBe('2026-07-02');
    expect(londonDate(new Date('2026-12-01T23:30:00Z'))).toBe('2026-12-01');
    expect(londonTime('2026-07-02', 0, 30).toISOString()).toBe('2026-07-01T23:30:00.000Z');
  });

  it('throws for an invalid date, as Intl does', () => {
    expect(() => londonParts(new Date(Number.NaN))).toThrow(RangeError);
  });
});
