// Every date rule of the schemes (claim timelines, report days, advances by working days) asks this
// calendar which London dates are working days.
import { bankHolidays, type HolidayTable } from './bank-holidays.ts';
import { addDays, dateProblem, daysBetween, isWeekend } from './dates.ts';

export interface CalendarOverrides {
  /** Extra non-working days (one-off closures), with the name the calendar shows. */
  non_working?: Array<{ date: string; name: string }>;
  /** Bank holidays that are Bacs working days after all (a weekend can never be made working). */
  working?: string[];
}

export interface CalendarDay {
  date: string;
  working: boolean;
  holiday?: string;
}

/**
 * The scheme calendars on Europe/London dates (YYYY-MM-DD strings): Bacs runs Monday–Friday less
 * England & Wales bank holidays (date-holidays GB/ENG, weekend entries dropped because their
 * substitute days carry them) and the overrides; Faster Payments runs every day.
 */
export class BacsCalendar {
  readonly #holidays = new Map<number, Map<string, string>>();
  readonly #extra: Array<{ date: string; name: string }>;
  readonly #working: Set<string>;
  readonly #table: HolidayTable;

  /** `table`: the bank holidays of the years it holds (fixtures/calendar/bank-holidays.json); other years come from date-holidays. */
  constructor(overrides: CalendarOverrides = {}, table: HolidayTable = {}) {
    this.#table = table;
    for (const o of overrides.non_working ?? []) {
      const problem = dateProblem(o.date);
      if (problem) throw new Error(`calendar override non_working date ${o.date} ${problem}`);
      if (typeof o.name !== 'string' || o.name.trim() === '')
        throw new Error(`calendar override non_working ${o.date} needs a name`);
    }
    for (const d of overrides.working ?? []) {
      const problem = dateProblem(d);
      if (problem) throw new Error(`calendar override working date ${d} ${problem}`);
      if (isWeekend(d))
        throw new Error(`calendar override working date ${d} is a weekend; only a holiday can be marked working`);
    }
    this.#extra = [...(overrides.non_working ?? [])];
    this.#working = new Set(overrides.working ?? []);
  }

  /** Non-working weekdays of a year with their names (bank holidays and extra closures). */
  holidaysOf(year: number): Map<string, string> {
    let map = this.#holidays.get(year);
    if (map) return map;
    map = new Map();
    for (const h of bankHolidays(year, this.#table)) map.set(h.date, h.name);
    for (const o of this.#extra) if (o.date.startsWith(`${year}-`) && !isWeekend(o.date)) map.set(o.date, o.name);
    for (const d of this.#working) map.delete(d);
    this.#holidays.set(year, map);
    return map;
  }

  /** The holiday's name when `date` is a non-working weekday, else undefined. */
  holidayName(date: string): string | undefined {
    return this.holidaysOf(Number(date.slice(0, 4))).get(date);
  }

  isBacsWorkingDay(date: string): boolean {
    return !isWeekend(date) && !this.holidaysOf(Number(date.slice(0, 4))).has(date);
  }

  /** Faster Payments settles every calendar day. */
  isFpsWorkingDay(_date: string): boolean {
    return true;
  }

  /** The first working day strictly after `date`. */
  nextWorkingDay(date: string): string {
    let d = addDays(date, 1);
    while (!this.isBacsWorkingDay(d)) d = addDays(d, 1);
    return d;
  }

  /** The last working day strictly before `date`. */
  previousWorkingDay(date: string): string {
    let d = addDays(date, -1);
    while (!this.isBacsWorkingDay(d)) d = addDays(d, -1);
    return d;
  }

  /** `date` if it is a working day, else the next one. */
  workingDayOnOrAfter(date: string): string {
    return this.isBacsWorkingDay(date) ? date : this.nextWorkingDay(date);
  }

  /**
   * Moves n working days from `date` (n may be negative; 0 returns `date`). Counting starts from
   * `date` itself, so addWorkingDays(Saturday, 1) is Monday and addWorkingDays(Saturday, -1) Friday.
   */
  addWorkingDays(date: string, n: number): string {
    if (!Number.isInteger(n)) throw new RangeError(`working days must be an integer, got ${n}`);
    const step = n >= 0 ? 1 : -1;
    let d = addDays(date, 0); // a DateRangeError for an unsupported date
    // Each step is a counted day; addDays throws a DateRangeError before the range is left.
    for (let left = Math.abs(n); left > 0; ) {
      d = addDays(d, step);
      if (this.isBacsWorkingDay(d)) left--;
    }
    return d;
  }

  /**
   * Working days in (from, to]: how many working days `to` lies after `from`, negative when `to` is
   * before `from`. It inverts addWorkingDays for n >= 0, and for any n when `from` is a working day:
   * workingDaysBetween(d, addWorkingDays(d, n)) === n.
   */
  workingDaysBetween(from: string, to: string): number {
    const span = daysBetween(from, to); // a DateRangeError for an unsupported date
    if (span < 0) return -this.workingDaysBetween(to, from);
    let count = 0;
    let d = from;
    for (let i = 0; i < span; i++) {
      d = addDays(d, 1);
      if (this.isBacsWorkingDay(d)) count++;
    }
    return count;
  }

  /** Every date in [from, to] with its working status and holiday name. */
  days(from: string, to: string): CalendarDay[] {
    const span = daysBetween(from, to); // a DateRangeError for an unsupported date
    const out: CalendarDay[] = [];
    for (let i = 0; i <= span; i++) {
      const d = i === 0 ? from : addDays(out[i - 1]!.date, 1);
      const holiday = this.holidayName(d);
      out.push({ date: d, working: this.isBacsWorkingDay(d), ...(holiday ? { holiday } : {}) });
    }
    return out;
  }
}
