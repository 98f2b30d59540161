// The dates and London times of the DDIC timeline. D0 is the Bacs working day a submission counts
// for; every later step is a number of Bacs working days after it, at a fixed London time of day.
import type { BacsCalendar } from '../../clock/calendar.ts';
import { londonParts, londonTime } from '../../clock/london.ts';

/** Submissions at or after 22:00 London count for the next working day. */
export const CUT_OFF_HOUR = 22;

/** London time of day (hour) at which each step of the timeline fires. */
export const STEP_HOURS = {
  /** Earliest validation: the start of D0 (a submission made at the weekend waits for it). */
  validation: 0,
  /** Release of the day's claims to the gateway: the cut-off itself. */
  release: CUT_OFF_HOUR,
  /**
   * Processing (D0+1), delivery (D0+2), settlement (D0+14), reversal processing: at the start of
   * the working day, so advancing N working days from any time of D0 always lands after step N.
   */
  scheme: 0,
} as const;

export const PROCESSING_DAY = 1;
export const DELIVERY_DAY = 2;
export const LAST_REVERSAL_DAY = 11;
export const SETTLEMENT_DAY = 14;

/**
 * The Bacs working day an instant counts for: its London date if that is a working day and the
 * time is before the 22:00 cut-off, else the next working day.
 */
export function schemeDayOf(instant: Date, calendar: BacsCalendar): string {
  return schemeDayAt(londonParts(instant), calendar);
}

/** schemeDayOf for a London date and hour already known (the cached claim calendar passes its own). */
export function schemeDayAt(
  london: { date: string; hour: number },
  days: { nextWorkingDay(date: string): string; workingDayOnOrAfter(date: string): string },
): string {
  return london.hour >= CUT_OFF_HOUR ? days.nextWorkingDay(london.date) : days.workingDayOnOrAfter(london.date);
}

export interface ClaimDates {
  submission_date: string;
  processing_date: string;
  delivery_date: string;
  reversal_deadline: string;
  settlement_date: string;
}

/** Every date of the timeline of a claim submitted for working day `d0`. */
export function claimDates(d0: string, calendar: BacsCalendar): ClaimDates {
  return {
    submission_date: d0,
    processing_date: calendar.addWorkingDays(d0, PROCESSING_DAY),
    delivery_date: calendar.addWorkingDays(d0, DELIVERY_DAY),
    reversal_deadline: calendar.addWorkingDays(d0, LAST_REVERSAL_DAY),
    settlement_date: calendar.addWorkingDays(d0, SETTLEMENT_DAY),
  };
}

/** The instant of a scheme step on a date (00:00 London). */
export function schemeStepAt(date: string): Date {
  return londonTime(date, STEP_HOURS.scheme);
}

/** The instant of the release to the gateway on D0 (22:00 London). */
export function releaseAt(d0: string): Date {
  return londonTime(d0, STEP_HOURS.release);
}
