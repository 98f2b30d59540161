import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateHolidayTable, HOLIDAY_TABLE_FILE, TABLE_YEARS } from '../../scripts/generate-bank-holidays.ts';
import { bankHolidays, holidaysFromLibrary } from './bank-holidays.ts';

describe('bank holiday table', () => {
  it('is exactly what date-holidays says for every year it holds (regenerate with npm run fixtures:holidays)', () => {
    const onDisk = JSON.parse(readFileSync(HOLIDAY_TABLE_FILE, 'utf8'));
    expect(onDisk).toEqual(generateHolidayTable());
  });

  it('serves years outside the table from the library', () => {
    expect(bankHolidays(TABLE_YEARS.to + 1)).toEqual(holidaysFromLibrary(TABLE_YEARS.to + 1));
    expect(bankHolidays(1999).map((h) => h.date)).toContain('1999-12-27'); // Christmas substitute
  });

  it('holds the substitute days and drops the weekend entries', () => {
    const dates = bankHolidays(2027).map((h) => h.date);
    expect(dates).toEqual(expect.arrayContaining(['2027-12-27', '2027-12-28']));
    expect(dates).not.toContain('2027-12-25');
  });
});
