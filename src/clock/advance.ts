// Moving the scheme clock is checked in one place, whoever asks (the route, code, a test): how far
// an advance goes and which targets it refuses.
import type { BacsCalendar } from './calendar.ts';
import { addDays, DateRangeError, isSupportedInstant, SUPPORTED_RANGE } from './dates.ts';
import { londonParts, londonTime } from './london.ts';
import { ClockError } from './scheme-clock.ts';

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
 * An advance the scheme clock refuses, whoever asks (the HTTP route, `advance()` from code, a test
 * driving the scheduler): `backward` for a target before the clock (a conflict with its state),
 * `unreachable` for one it cannot move to (not an instant, outside the supported dates, beyond the
 * five-year cap).
 */
export class AdvanceRefused extends ClockError {
  readonly reason: 'backward' | 'unreachable';
  constructor(reason: 'backward' | 'unreachable', message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The unit a request names, for messages: `working_days`, `days`, `hours` or `to`. */
export function unitOf(request: AdvanceRequest): string {
  return Object.keys(request)[0] ?? 'the target';
}

/**
 * The advance checks, in one place: from `from` (the caller's one reading of the clock) the clock
 * may move only forward, to a valid instant inside the supported dates, at most five years on.
 * `asked` names what the caller asked for in the message (`to`, `working_days`, …).
 */
export function refuseTarget(from: Date, target: Date, asked = 'the target'): void {
  if (Number.isNaN(target.getTime())) throw new AdvanceRefused('unreachable', `${asked} is not a valid instant`);
  if (target.getTime() < from.getTime())
    throw new AdvanceRefused(
      'backward',
      `${asked} (${target.toISOString()}) is before the scheme clock (${from.toISOString()}); the clock only moves forward`,
    );
  if (!isSupportedInstant(target))
    throw new AdvanceRefused(
      'unreachable',
      `${asked} moves the clock to ${target.toISOString()}, outside the dates the simulator supports (${SUPPORTED_RANGE})`,
    );
  const latest = latestTarget(from);
  if (target.getTime() > latest.getTime())
    throw new AdvanceRefused(
      'unreachable',
      `${asked} moves the clock to ${target.toISOString()}, more than ${MAX_ADVANCE_YEARS} years after the scheme clock (at most ${latest.toISOString()})`,
    );
}

/**
 * The instant an advance moves to (checked by the scheduler as it starts: refuseTarget). Working
 * days keep the London wall time of day: advancing one working day from Friday 09:00 lands on
 * Monday 09:00 (Tuesday after a bank holiday Monday), in whichever of GMT and BST applies on the
 * day. Days likewise keep the London wall time; hours are exact elapsed hours. A count that would
 * leave the calendar's dates is refused here.
 */
export function advanceTarget(now: Date, request: AdvanceRequest, calendar: BacsCalendar): Date {
  if ('to' in request) return new Date(request.to);
  if ('hours' in request) return new Date(now.getTime() + request.hours * 3_600_000);
  const p = londonParts(now);
  let date: string;
  try {
    date =
      'working_days' in request ? calendar.addWorkingDays(p.date, request.working_days) : addDays(p.date, request.days);
  } catch (err) {
    if (err instanceof DateRangeError)
      throw new AdvanceRefused(
        'unreachable',
        `${unitOf(request)} moves the clock outside the dates the simulator supports (${SUPPORTED_RANGE})`,
      );
    throw err;
  }
  const target = londonTime(date, p.hour, p.minute, p.second, now.getUTCMilliseconds());
  // A wall time that does not exist on the target day (01:xx when the clocks go forward) lands an
  // hour later; one that exists twice (when they go back) takes the first. Never behind `now`.
  return target.getTime() < now.getTime() ? now : target;
}
