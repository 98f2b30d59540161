import type { BacsCalendar } from './calendar.ts';
import { addDays } from './dates.ts';
import { londonParts, londonTime } from './london.ts';

/** Exactly one unit: Bacs working days, calendar days, hours, or an instant to move to. */
export type AdvanceRequest = { working_days: number } | { days: number } | { hours: number } | { to: string };

export const ADVANCE_UNITS = ['working_days', 'days', 'hours', 'to'] as const;

/** How far one advance may move the clock: five years (and the largest counts that stay inside it). */
export const MAX_ADVANCE_YEARS = 5;

/** The latest instant an advance from `now` may reach: the same instant five calendar years on. */
export function latestTarget(now: Date): Date {
  const d = new Date(now.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + MAX_ADVANCE_YEARS);
  return d;
}

/**
 * The instant an advance moves to. Working days keep the London wall time of day: advancing one
 * working day from Friday 09:00 lands on Monday 09:00 (Tuesday after a bank holiday Monday), in
 * whichever of GMT and BST applies on the day. Days likewise keep the London wall time; hours are
 * exact elapsed hours.
 */
export function advanceTarget(now: Date, request: AdvanceRequest, calendar: BacsCalendar): Date {
  if ('to' in request) return new Date(request.to);
  if ('hours' in request) return new Date(now.getTime() + request.hours * 3_600_000);
  const p = londonParts(now);
  const date =
    'working_days' in request ? calendar.addWorkingDays(p.date, request.working_days) : addDays(p.date, request.days);
  const target = londonTime(date, p.hour, p.minute, p.second, now.getUTCMilliseconds());
  // A wall time that does not exist on the target day (01:xx when the clocks go forward) lands an
  // hour later; one that exists twice (when they go back) takes the first. Never behind `now`.
  return target.getTime() < now.getTime() ? now : target;
}
