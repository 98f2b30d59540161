import { describe, expect, it } from 'vitest';
import { advanceTarget, latestTarget } from './advance.ts';
import { BacsCalendar } from './calendar.ts';

const cal = new BacsCalendar();
const at = (iso: string, req: Parameters<typeof advanceTarget>[1]) =>
  advanceTarget(new Date(iso), req, cal).toISOString();

describe('advanceTarget', () => {
  it('keeps the London time of day over working days, across Christmas', () => {
    expect(at('2026-12-24T09:00:00.000Z', { working_days: 1 })).toBe('2026-12-29T09:00:00.000Z');
    expect(at('2026-12-21T09:00:00.000Z', { working_days: 10 })).toBe('2027-01-07T09:00:00.000Z'); // 1 January is a holiday;
  });

  it('keeps 09:00 London when BST starts (Easter 2027 weekend) and ends', () => {
    // Thursday 25 March 2027 09:00 GMT → Tuesday 30 March 09:00 BST = 08:00Z.
    expect(at('2027-03-25T09:00:00.000Z', { working_days: 1 })).toBe('2027-03-30T08:00:00.000Z');
    // Friday 23 October 2026 09:00 BST (08:00Z) → Monday 26 October 09:00 GMT.
    expect(at('2026-10-23T08:00:00.000Z', { working_days: 1 })).toBe('2026-10-26T09:00:00.000Z');
  });

  it('uses the London date near midnight in summer', () => {
    // 23:30Z on Friday 3 July 2026 is 00:30 BST on Saturday 4 July: one working day on is Monday 6th, 00:30 BST.
    expect(at('2026-07-03T23:30:00.000Z', { working_days: 1 })).toBe('2026-07-05T23:30:00.000Z');
  });

  it('moves calendar days at the same London wall time; hours are elapsed hours', () => {
    expect(at('2026-03-28T12:00:00.000Z', { days: 1 })).toBe('2026-03-29T11:00:00.000Z');
    expect(at('2026-03-28T12:00:00.000Z', { hours: 24 })).toBe('2026-03-29T12:00:00.000Z');
    expect(at('2026-12-21T09:00:00.000Z', { days: 0 })).toBe('2026-12-21T09:00:00.000Z');
  });

  it('lands an hour later when the wall time does not exist that day', () => {
    expect(at('2026-03-28T01:30:00.000Z', { days: 1 })).toBe('2026-03-29T01:30:00.000Z');
  });

  it('moves to an instant', () => {
    expect(at('2026-12-21T09:00:00.000Z', { to: '2026-12-22T10:00:00+01:00' })).toBe('2026-12-22T09:00:00.000Z');
  });

  it('allows at most five years', () => {
    expect(latestTarget(new Date('2026-12-21T09:00:00.000Z')).toISOString()).toBe('2031-12-21T09:00:00.000Z');
  });
});
