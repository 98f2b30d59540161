import { describe, expect, it } from 'vitest';
import {
  addDays,
  DateRangeError,
  dateProblem,
  daysBetween,
  FIRST_DATE,
  isIsoDate,
  isSupportedInstant,
  LAST_DATE,
} from './dates.ts';

describe('the supported date range (1900-01-01 to 2199-12-31)', () => {
  it('accepts real dates inside it', () => {
    for (const d of [FIRST_DATE, '2026-12-21', '2028-02-29', LAST_DATE]) expect(isIsoDate(d)).toBe(true);
  });

  it('refuses dates outside it with a message naming the range', () => {
    for (const d of ['1899-12-31', '2200-01-01', '9999-12-31', '0050-01-01', '0000-01-01']) {
      expect(isIsoDate(d)).toBe(false);
      expect(dateProblem(d)).toBe('must be a date from 1900-01-01 to 2199-12-31');
    }
  });

  it('calls malformed and impossible dates malformed (not years 00xx mapped to 19xx)', () => {
    for (const d of ['2027-02-30', '2026-13-01', '26/12/2026', '2026-1-1', '+010000-01-01', '']) {
      expect(isIsoDate(d)).toBe(false);
      expect(dateProblem(d)).toBe('must be a date (YYYY-MM-DD)');
    }
  });
});

describe('addDays', () => {
  it('moves across months, years and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays(LAST_DATE, 0)).toBe(LAST_DATE);
    expect(addDays('2199-12-30', 1)).toBe(LAST_DATE);
  });

  it('throws a DateRangeError instead of leaving the range (9999-12-31 + 1 was "+010000-01")', () => {
    expect(() => addDays(LAST_DATE, 1)).toThrow(DateRangeError);
    expect(() => addDays(FIRST_DATE, -1)).toThrow(DateRangeError);
    expect(() => addDays('9999-12-31', 1)).toThrow(/must be a date from 1900-01-01 to 2199-12-31/);
    expect(() => addDays('not a date', 1)).toThrow(DateRangeError);
    expect(() => addDays('2026-12-21', 1.5)).toThrow(RangeError);
  });
});

describe('daysBetween and isSupportedInstant', () => {
  it('counts calendar days', () => {
    expect(daysBetween('2026-12-21', '2027-01-20')).toBe(30);
    expect(daysBetween('2027-01-20', '2026-12-21')).toBe(-30);
    expect(() => daysBetween('2026-12-21', '9999-12-31')).toThrow(DateRangeError);
  });

  it('places instants by their London date (GMT at both ends of the range)', () => {
    expect(isSupportedInstant(new Date('1900-01-01T00:00:00Z'))).toBe(true);
    expect(isSupportedInstant(new Date('1899-12-31T23:59:59.999Z'))).toBe(false);
    expect(isSupportedInstant(new Date('2199-12-31T23:59:59.999Z'))).toBe(true);
    expect(isSupportedInstant(new Date('2200-01-01T00:00:00Z'))).toBe(false);
  });
});
