import { describe, expect, it } from 'vitest';
import { BacsCalendar } from './calendar.ts';
import { DateRangeError } from './dates.ts';

const cal = new BacsCalendar();

describe('BacsCalendar: England & Wales bank holidays', () => {
  it.each([
    ['2023-05-08', "King Charles III's Coronation"],
    ['2026-12-25', 'Christmas Day'],
    ['2026-12-28', 'Boxing Day (substitute day)'],
    ['2027-12-27', 'Christmas Day (substitute day)'],
    ['2027-12-28', 'Boxing Day (substitute day)'],
    ['2028-01-03', "New Year's Day (substitute day)"],
  ])('%s is not a working day (%s)', (date, name) => {
    expect(cal.isBacsWorkingDay(date)).toBe(false);
    expect(cal.holidayName(date)).toBe(name);
  });

  it('2026-12-29 is a working day, and ordinary weekdays are too', () => {
    expect(cal.isBacsWorkingDay('2026-12-29')).toBe(true);
    expect(cal.isBacsWorkingDay('2026-12-21')).toBe(true);
    expect(cal.holidayName('2026-12-29')).toBeUndefined();
  });

  it('drops the weekend entries whose substitutes carry them', () => {
    expect(cal.isBacsWorkingDay('2026-12-26')).toBe(false); // Saturday
    expect(cal.holidayName('2026-12-26')).toBeUndefined();
    expect([...cal.holidaysOf(2027).keys()]).not.toContain('2027-12-25');
    expect([...cal.holidaysOf(2027).keys()]).toContain('2027-12-27');
  });

  it('keeps Good Friday and Easter Monday', () => {
    expect(cal.holidayName('2026-04-03')).toBe('Good Friday');
    expect(cal.holidayName('2026-04-06')).toBe('Easter Monday');
  });

  it('runs Faster Payments every day', () => {
    expect(cal.isFpsWorkingDay('2026-12-25')).toBe(true);
    expect(cal.isFpsWorkingDay('2026-12-26')).toBe(true);
  });
});

describe('BacsCalendar: working-day arithmetic', () => {
  it('adds working days across Christmas and New Year', () => {
    expect(cal.addWorkingDays('2026-12-24', 1)).toBe('2026-12-29');
    expect(cal.addWorkingDays('2026-12-21', 5)).toBe('2026-12-30');
    expect(cal.addWorkingDays('2027-12-24', 1)).toBe('2027-12-29');
    expect(cal.addWorkingDays('2027-12-31', 1)).toBe('2028-01-04');
  });

  it('adds working days across Easter (Good Friday and Easter Monday)', () => {
    expect(cal.addWorkingDays('2026-04-02', 1)).toBe('2026-04-07');
    expect(cal.addWorkingDays('2026-04-07', -1)).toBe('2026-04-02');
  });

  it('adds working days across both BST changes (dates do not care about the hour)', () => {
    expect(cal.addWorkingDays('2026-03-27', 1)).toBe('2026-03-30'); // clocks go forward 29 March
    expect(cal.addWorkingDays('2026-10-23', 1)).toBe('2026-10-26'); // clocks go back 25 October
    expect(cal.addWorkingDays('2027-03-25', 1)).toBe('2027-03-30'); // Easter 2027 and BST on the same weekend
  });

  it('subtracts working days', () => {
    expect(cal.addWorkingDays('2026-12-29', -1)).toBe('2026-12-24');
    expect(cal.addWorkingDays('2028-01-04', -2)).toBe('2027-12-30');
    expect(cal.addWorkingDays('2026-12-26', -1)).toBe('2026-12-24');
  });

  it('counts from a non-working day itself, and 0 is the same date', () => {
    expect(cal.addWorkingDays('2026-12-26', 1)).toBe('2026-12-29');
    expect(cal.addWorkingDays('2026-12-26', 0)).toBe('2026-12-26');
  });

  it('rejects a fractional count and a malformed date', () => {
    expect(() => cal.addWorkingDays('2026-12-21', 1.5)).toThrow(/integer/);
    expect(() => cal.addWorkingDays('2026-02-30', 1)).toThrow(/YYYY-MM-DD/);
  });

  it('nextWorkingDay and previousWorkingDay skip weekends and holidays', () => {
    expect(cal.nextWorkingDay('2026-12-24')).toBe('2026-12-29');
    expect(cal.nextWorkingDay('2026-12-21')).toBe('2026-12-22');
    expect(cal.previousWorkingDay('2026-12-29')).toBe('2026-12-24');
    expect(cal.workingDayOnOrAfter('2026-12-25')).toBe('2026-12-29');
    expect(cal.workingDayOnOrAfter('2026-12-29')).toBe('2026-12-29');
  });

  it('workingDaysBetween counts (from, to] and is signed', () => {
    expect(cal.workingDaysBetween('2026-12-21', '2026-12-31')).toBe(6);
    expect(cal.workingDaysBetween('2026-12-31', '2026-12-21')).toBe(-6);
    expect(cal.workingDaysBetween('2026-12-24', '2026-12-28')).toBe(0);
    expect(cal.workingDaysBetween('2026-12-21', '2026-12-21')).toBe(0);
  });

  it('workingDaysBetween inverts addWorkingDays over two years', () => {
    for (let d = '2026-01-05', i = 0; i < 730; i++) {
      for (const n of [1, 3, 14, -2, -11]) expect(cal.workingDaysBetween(d, cal.addWorkingDays(d, n))).toBe(n);
      d = cal.nextWorkingDay(d);
    }
  });

  it('lists days with status and holiday names', () => {
    expect(cal.days('2026-12-24', '2026-12-29')).toEqual([
      { date: '2026-12-24', working: true },
      { date: '2026-12-25', working: false, holiday: 'Christmas Day' },
      { date: '2026-12-26', working: false },
      { date: '2026-12-27', working: false },
      { date: '2026-12-28', working: false, holiday: 'Boxing Day (substitute day)' },
      { date: '2026-12-29', working: true },
    ]);
  });
});

describe('BacsCalendar: overrides', () => {
  const custom = new BacsCalendar({
    non_working: [{ date: '2026-12-31', name: 'Scheme closure' }],
    working: ['2026-12-28'],
  });

  it('adds an extra non-working day with its name', () => {
    expect(custom.isBacsWorkingDay('2026-12-31')).toBe(false);
    expect(custom.holidayName('2026-12-31')).toBe('Scheme closure');
  });

  it('marks a holiday as working', () => {
    expect(custom.isBacsWorkingDay('2026-12-28')).toBe(true);
    expect(custom.holidayName('2026-12-28')).toBeUndefined();
    expect(custom.addWorkingDays('2026-12-24', 1)).toBe('2026-12-28');
    expect(custom.addWorkingDays('2026-12-30', 1)).toBe('2027-01-04');
  });

  it('rejects malformed overrides at load', () => {
    expect(() => new BacsCalendar({ non_working: [{ date: '2026-13-01', name: 'x' }] })).toThrow(
      /non_working date 2026-13-01/,
    );
    expect(() => new BacsCalendar({ non_working: [{ date: '2026-12-30', name: '' }] })).toThrow(/needs a name/);
    expect(() => new BacsCalendar({ working: ['2026-12-26'] })).toThrow(/weekend/);
    expect(() => new BacsCalendar({ working: ['26/12/2026'] })).toThrow(/must be a date \(YYYY-MM-DD\)/);
  });
});

describe('BacsCalendar: the ends of the supported dates', () => {
  it('lists and counts days up to 2199-12-31', () => {
    const days = cal.days('2199-12-25', '2199-12-31');
    expect(days.map((d) => d.date)).toEqual([
      '2199-12-25',
      '2199-12-26',
      '2199-12-27',
      '2199-12-28',
      '2199-12-29',
      '2199-12-30',
      '2199-12-31',
    ]);
    expect(cal.workingDaysBetween('2199-12-24', '2199-12-31')).toBe(days.filter((d) => d.working).length);
    expect(cal.days('2026-12-21', '2026-12-21')).toHaveLength(1);
  });

  it('throws a DateRangeError at once rather than looping past the range', () => {
    expect(() => cal.days('9999-12-01', '9999-12-31')).toThrow(DateRangeError);
    expect(() => cal.days('2199-12-01', '2200-01-31')).toThrow(DateRangeError);
    expect(() => cal.workingDaysBetween('2199-12-01', '9999-12-31')).toThrow(DateRangeError);
    expect(() => cal.addWorkingDays('9999-12-28', 5)).toThrow(DateRangeError);
    expect(() => cal.addWorkingDays('9999-12-28', 0)).toThrow(DateRangeError);
    expect(() => cal.addWorkingDays('2199-12-30', 5)).toThrow(DateRangeError);
    expect(() => cal.addWorkingDays('1900-01-02', -5)).toThrow(DateRangeError);
    expect(() => cal.nextWorkingDay('2199-12-31')).toThrow(DateRangeError);
  });
});
