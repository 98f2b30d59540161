import Holidays from 'date-holidays';
import { addDays, isIsoDate, isWeekend } from './dates.ts';

export interface CalendarOverrides {
  /** Extra non-working days (one-off closures). */
  non_working?: Array<{ date: string; name: string }>;
  /** Holidays that are working days after all. */
  working?: string[];
}

export interface Holiday {
  date: string;
  name: string;
}

/** The scheme calendars: Bacs (Mon–Fri less England & Wales bank holidays) and Faster Payments (every day). */
export class BacsCalendar {
  readonly #holidays = new Map<number, Map<string, string>>();
  readonly #source = new Holidays('GB', 'ENG');
  readonly #overrides: Required<CalendarOverrides>;

  constructor(overrides: CalendarOverrides = {}) {
    for (const o of overrides.non_working ?? []) {
      if (!isIsoDate(o.date)) throw new Error(`calendar override non_working date ${o.date} is not YYYY-MM-DD`);
    }
    for (const d of overrides.working ?? []) {
      if (!isIsoDate(d)) throw new Error(`calendar override working date ${d} is not YYYY-MM-DD`);
    }
    this.#overrides = { non_working: overrides.non_working ?? [], working: overrides.working ?? [] };
  }

  /** Bank holidays of a year that fall on weekdays (weekend entries are dropped: their substitutes carry them). */
  holidaysOf(year: number): Map<string, string> {
    let map = this.#holidays.get(year);
    if (map) return map;
    map = new Map();
    for (const h of this.#source.getHolidays(year)) {
      if (h.type !== 'public' && h.type !== 'bank') continue;
      const date = h.date.slice(0, 10);
      if (isWeekend(date)) continue;
      map.set(date, h.name);
    }
    for (const o of this.#overrides.non_working) if (o.date.startsWith(`${year}-`)) map.set(o.date, o.name);
    for (const d of this.#overrides.working) map.delete(d);
    this.#holidays.set(year, map);
    return map;
  }

  holidayName(date: string): string | undefined {
    return this.holidaysOf(Number(date.slice(0, 4))).get(date);
  }

  isBacsWorkingDay(date: string): boolean {
    if (this.#overrides.working.includes(date)) return true;
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

  /** `date` if it is a working day, else the next one. */
  workingDayOnOrAfter(date: string): string {
    return this.isBacsWorkingDay(date) ? date : this.nextWorkingDay(date);
  }

  /**
   * Moves n working days from `date` (n may be negative). Counting starts from `date` itself, so
   * addWorkingDays(Friday, 1) is Monday even when `date` is not a working day.
   */
  addWorkingDays(date: string, n: number): string {
    if (!Number.isInteger(n)) throw new RangeError(`working days must be an integer, got ${n}`);
    const step = n >= 0 ? 1 : -1;
    let d = date;
    for (let left = Math.abs(n); left > 0; ) {
      d = addDays(d, step);
      if (this.isBacsWorkingDay(d)) left--;
    }
    return d;
  }

  /** Working days in (from, to]: how many working days `to` lies after `from` (negative if before). */
  workingDaysBetween(from: string, to: string): number {
    if (to < from) return -this.workingDaysBetween(to, from);
    let count = 0;
    for (let d = addDays(from, 1); d <= to; d = addDays(d, 1)) if (this.isBacsWorkingDay(d)) count++;
    return count;
  }

  /** Every date in [from, to] with its working status and holiday name. */
  days(from: string, to: string): Array<{ date: string; working: boolean; holiday?: string }> {
    const out: Array<{ date: string; working: boolean; holiday?: string }> = [];
    for (let d = from; d <= to; d = addDays(d, 1)) {
      const holiday = this.holidayName(d);
      out.push({ date: d, working: this.isBacsWorkingDay(d), ...(holiday ? { holiday } : {}) });
    }
    return out;
  }
}
