import { describe, expect, it } from 'vitest';
import { BacsCalendar } from '../../clock/calendar.ts';
import { ClaimCalendar } from './claim-calendar.ts';
import { claimDates, schemeDayOf } from './claim-dates.ts';

const calendar = new BacsCalendar();

describe('ClaimCalendar (memoised)', () => {
  it('gives the same D0 as schemeDayOf at every quarter hour across both 2027 clock changes', () => {
    const cached = new ClaimCalendar(calendar);
    for (const [from, to] of [
      ['2027-03-26T00:00:00Z', '2027-03-30T00:00:00Z'],
      ['2027-10-29T00:00:00Z', '2027-11-02T00:00:00Z'],
    ] as const) {
      for (let t = Date.parse(from); t < Date.parse(to); t += 15 * 60_000) {
        const instant = new Date(t);
        expect(cached.dayOf(instant), instant.toISOString()).toBe(schemeDayOf(instant, calendar));
      }
    }
  });

  it('gives the dates and step instants of a D0', () => {
    const cached = new ClaimCalendar(calendar);
    expect(cached.dates('2026-12-21')).toEqual(claimDates('2026-12-21', calendar));
    expect(cached.instants('2027-06-15')).toEqual({
      validationFrom: new Date('2027-06-14T23:00:00Z'),
      release: new Date('2027-06-15T21:00:00Z'),
      process: new Date('2027-06-15T23:00:00Z'),
      deliver: new Date('2027-06-16T23:00:00Z'),
      settle: new Date('2027-07-04T23:00:00Z'),
    });
  });
});
