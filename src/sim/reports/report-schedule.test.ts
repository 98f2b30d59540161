import { describe, expect, it } from 'vitest';
import { BacsCalendar } from '../../clock/calendar.ts';
import { readFixtures } from '../../fixtures.ts';
import { ReportCatalogue } from './catalogue.ts';
import { dailyJobId, nextOccurrence, slotsOf } from './report-schedule.ts';

const cal = new BacsCalendar();

describe('daily report slots', () => {
  it('are the distinct (days, London time) pairs of the catalogue', () => {
    const keys = slotsOf(new ReportCatalogue(readFixtures().reportCatalogue))
      .map((s) => `${s.days}@${s.london_time}`)
      .sort();
    expect(keys).toEqual(['bacs_working_days@06:00', 'bacs_working_days@22:30', 'every_day@06:30', 'every_day@07:00']);
  });

  it('skip weekends and bank holidays for Bacs, not for FPS', () => {
    const bacs = { days: 'bacs_working_days', london_time: '06:00' } as const;
    const fps = { days: 'every_day', london_time: '06:30' } as const;
    // Thursday 24 December 2026 after 06:00: Friday 25 and Monday 28 (Boxing Day substitute) are holidays.
    expect(nextOccurrence(bacs, new Date('2026-12-24T07:00:00Z'), cal)).toEqual({
      date: '2026-12-29',
      due: new Date('2026-12-29T06:00:00Z'),
    });
    expect(nextOccurrence(fps, new Date('2026-12-24T07:00:00Z'), cal)?.date).toBe('2026-12-25');
  });

  it('are strictly after the instant and in London time (BST in summer)', () => {
    const bacs = { days: 'bacs_working_days', london_time: '06:00' } as const;
    expect(nextOccurrence(bacs, new Date('2027-06-01T05:00:00Z'), cal)).toEqual({
      date: '2027-06-02',
      due: new Date('2027-06-02T05:00:00Z'),
    });
    expect(nextOccurrence(bacs, new Date('2027-06-01T04:59:59Z'), cal)?.date).toBe('2027-06-01');
  });

  it('end with the last supported date (2199-12-31) and are none from a clock outside the range', () => {
    const fps = { days: 'every_day', london_time: '06:30' } as const;
    expect(nextOccurrence(fps, new Date('2199-12-30T07:00:00Z'), cal)?.date).toBe('2199-12-31');
    expect(nextOccurrence(fps, new Date('2199-12-31T07:00:00Z'), cal)).toBeNull();
    expect(nextOccurrence(fps, new Date('9999-12-28T07:00:00Z'), cal)).toBeNull();
  });

  it('have one job id per organisation, date and slot', () => {
    expect(dailyJobId('org', '2026-12-22', { days: 'every_day', london_time: '06:30' })).toBe(
      'reports:daily:org:2026-12-22:fps-0630',
    );
  });
});
