// The scheme calendar for the conformance harness (its journeys count Bacs
// working days as the scheme does, England & Wales bank holidays included).
import { BacsCalendar } from '../clock/calendar.ts';
import { londonDate } from '../clock/london.ts';

const calendar = new BacsCalendar();

/** The date `n` Bacs working days after `date` (YYYY-MM-DD). */
export function addBacsWorkingDays(date: string, n: number): string {
  return calendar.addWorkingDays(date, n);
}

/** Today's date in London, where the scheme keeps its days. */
export function londonToday(now: Date = new Date()): string {
  return londonDate(now);
}
