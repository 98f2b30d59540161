// The Bacs calendar needs England and Wales bank holidays without paying date-holidays' load time
// at start-up: a generated table, the library only for the years it lacks (decision 003).
import { createRequire } from 'node:module';
import type HolidaysType from 'date-holidays';
import { isWeekend } from './dates.ts';

/**
 * England & Wales bank holidays that fall on weekdays, by year, from date-holidays (GB, ENG).
 * Weekend entries are dropped: their substitute days carry them.
 *
 * Loading date-holidays costs about 350 ms (it parses every country's rules), a third of the
 * start-up budget. So the years simulations use are served from a table generated from the same
 * library (fixtures/calendar/bank-holidays.json, written by `npm run fixtures:holidays`; a test keeps
 * it equal to the library). The runtime reads that file and hands the table to the calendar; the
 * library itself is loaded, synchronously and once, only for a year outside the table.
 */
export type HolidayTable = Record<string, Array<{ date: string; name: string }>>;

let library: HolidaysType | undefined;

/** The year's holidays straight from date-holidays (loaded on first use). */
export function holidaysFromLibrary(year: number): Array<{ date: string; name: string }> {
  if (!library) {
    const Holidays = createRequire(import.meta.url)('date-holidays') as typeof HolidaysType;
    library = new Holidays('GB', 'ENG');
  }
  const out: Array<{ date: string; name: string }> = [];
  for (const h of library.getHolidays(year)) {
    if (h.type !== 'public' && h.type !== 'bank') continue;
    const date = h.date.slice(0, 10);
    if (isWeekend(date)) continue;
    out.push({ date, name: h.name });
  }
  return out;
}

/** The year's weekday bank holidays: from the table when it holds the year, else from the library. */
export function bankHolidays(year: number, table: HolidayTable = {}): Array<{ date: string; name: string }> {
  return table[String(year)] ?? holidaysFromLibrary(year);
}
