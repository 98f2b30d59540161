import { BacsCalendar } from '../../src/clock/calendar.ts';
import { londonDate } from '../../src/clock/london.ts';

// The scheme calendar for test code outside src (the conformance harness's journeys count Bacs
// working days as the scheme does, England & Wales bank holidays included).
const calendar = new BacsCalendar();

/** The date `n` Bacs working days after `date` (YYYY-MM-DD). */
export function addBacsWorkingDays(date: string, n: number): string {
  return calendar.addWorkingDays(date, n);
}

/** Today's date in London, where the scheme keeps its days. */
export function londonToday(now: Date = new Date()): string {
  return londonDate(now);
}
