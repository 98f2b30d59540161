import { describe, expect, it } from 'vitest';
import { BacsCalendar } from '../../clock/calendar.ts';
import { claimDates, releaseAt, schemeDayOf, schemeStepAt } from './claim-dates.ts';

const calendar = new BacsCalendar();

describe('D0 and the 22:00 London cut-off', () => {
  it('in winter (London = UTC): 21:59 is the same day, 22:00 the next working day', () => {
    expect(schemeDayOf(new Date('2026-12-22T21:59:00Z'), calendar)).toBe('2026-12-22');
    expect(schemeDayOf(new Date('2026-12-22T21:59:59.999Z'), calendar)).toBe('2026-12-22');
    expect(schemeDayOf(new Date('2026-12-22T22:00:00Z'), calendar)).toBe('2026-12-23');
  });

  it('in summer (London = UTC+1): 20:59Z is 21:59 London, 21:00Z is 22:00 London', () => {
    expect(schemeDayOf(new Date('2027-06-15T20:59:00Z'), calendar)).toBe('2027-06-15');
    expect(schemeDayOf(new Date('2027-06-15T21:00:00Z'), calendar)).toBe('2027-06-16');
    // 23:30Z on the 15th is already the 16th in London, before its cut-off.
    expect(schemeDayOf(new Date('2027-06-15T23:30:00Z'), calendar)).toBe('2027-06-16');
  });

  it('after the cut-off on Christmas Eve or on a Friday moves past the closed days', () => {
    expect(schemeDayOf(new Date('2026-12-24T22:00:00Z'), calendar)).toBe('2026-12-29');
    expect(schemeDayOf(new Date('2027-06-18T21:00:00Z'), calendar)).toBe('2027-06-21');
  });

  it('a weekend or bank holiday submission counts for the next working day', () => {
    expect(schemeDayOf(new Date('2026-12-26T10:00:00Z'), calendar)).toBe('2026-12-29');
    expect(schemeDayOf(new Date('2027-01-01T09:00:00Z'), calendar)).toBe('2027-01-04');
    expect(schemeDayOf(new Date('2027-03-29T09:00:00+01:00'), calendar)).toBe('2027-03-30'); // Easter Monday
  });
});

describe('the dates of the timeline', () => {
  it('Monday 2026-12-21 settles on 2027-01-13, skipping 25 and 28 December and 1 January', () => {
    expect(claimDates('2026-12-21', calendar)).toEqual({
      submission_date: '2026-12-21',
      processing_date: '2026-12-22',
      delivery_date: '2026-12-23',
      reversal_deadline: '2027-01-08',
      settlement_date: '2027-01-13',
    });
  });

  it('Christmas Eve: processed after the Christmas break', () => {
    expect(claimDates('2026-12-24', calendar)).toMatchObject({
      processing_date: '2026-12-29',
      delivery_date: '2026-12-30',
      reversal_deadline: '2027-01-13',
      settlement_date: '2027-01-18',
    });
  });

  it('across Easter 2027 (Good Friday 26 March, Easter Monday 29 March)', () => {
    expect(claimDates('2027-03-18', calendar)).toEqual({
      submission_date: '2027-03-18',
      processing_date: '2027-03-19',
      delivery_date: '2027-03-22',
      reversal_deadline: '2027-04-06',
      settlement_date: '2027-04-09',
    });
    expect(claimDates('2027-03-25', calendar)).toMatchObject({
      processing_date: '2027-03-30',
      delivery_date: '2027-03-31',
    });
  });

  it('across a plain weekend', () => {
    expect(claimDates('2027-02-05', calendar)).toMatchObject({
      processing_date: '2027-02-08',
      delivery_date: '2027-02-09',
      reversal_deadline: '2027-02-22',
      settlement_date: '2027-02-25',
    });
  });
});

describe('London times of the steps', () => {
  it('scheme steps at 00:00 London and release at 22:00 London, in winter and summer', () => {
    expect(schemeStepAt('2026-12-22').toISOString()).toBe('2026-12-22T00:00:00.000Z');
    expect(schemeStepAt('2027-06-16').toISOString()).toBe('2027-06-15T23:00:00.000Z');
    expect(releaseAt('2026-12-21').toISOString()).toBe('2026-12-21T22:00:00.000Z');
    expect(releaseAt('2027-06-15').toISOString()).toBe('2027-06-15T21:00:00.000Z');
  });
});
