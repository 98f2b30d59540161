import type { BacsCalendar } from './calendar.ts';
import { londonParts, londonTime } from './london.ts';

/** Exactly one unit: Bacs working days, calendar days, hours, or an instant to move to. */
export type AdvanceRequest = { working_days: number } | { days: number } | { hours: number } | { to: string };

/**
 * The instant an advance moves to. Working days keep the London wall time of day: advancing one
 * working day from Friday 09:00 lands on Monday 09:00 (Tuesday after a bank holiday Monday).
 */
export function advanceTarget(now: Date, request: AdvanceRequest, calendar: BacsCalendar): Date {
  if ('working_days' in request) {
    const p = londonParts(now);
    const date = calendar.addWorkingDays(p.date, request.working_days);
    return londonTime(date, p.hour, p.minute, p.second, now.getUTCMilliseconds());
  }
  if ('days' in request) {
    // Calendar days in London: the same wall time, whatever a BST change does to the hour count.
    const p = londonParts(now);
    const d = new Date(`${p.date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + request.days);
    return londonTime(d.toISOString().slice(0, 10), p.hour, p.minute, p.second, now.getUTCMilliseconds());
  }
  if ('hours' in request) return new Date(now.getTime() + request.hours * 3_600_000);
  return new Date(request.to);
}
