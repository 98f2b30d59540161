// The Bacs calendar as the simulator keeps it, readable, so a test can see which days are working
// days before it moves the clock.
import { addDays, dateProblem, daysBetween, LAST_DATE, SUPPORTED_RANGE } from '../../clock/dates.ts';
import { londonDate } from '../../clock/london.ts';
import type { AppDeps } from '../context.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { queryOf } from '../wire/envelope.ts';
import { ApiError } from '../wire/errors.ts';

/** Longest range one calendar request may cover, in days (two years, a leap day included). */
export const MAX_CALENDAR_DAYS = 731;
/** Days shown when `to` is omitted. */
export const DEFAULT_CALENDAR_DAYS = 31;

/** /v1/simulator/calendar?from=&to=: the Bacs working days and holidays of a range of London dates. */
export function simulatorCalendarRoutes({ sim }: AppDeps): RouteGroup {
  const r = defineRoutes('/v1/simulator/calendar', 'Simulator');

  /** The London date of the scheme clock, the default `from`; a clock outside the range needs one given. */
  const today = (): string => {
    const date = londonDate(sim.clock.now());
    if (dateProblem(date)) {
      throw new ApiError(
        409,
        `the scheme clock's date ${date} is outside the dates the simulator supports (${SUPPORTED_RANGE}); give from in query`,
      );
    }
    return date;
  };

  r.get('/', { summary: 'Bacs working days and holidays (?from=&to=)', answer: 'calendar' }, (c) => {
    const query = queryOf(c);
    for (const key of query.keys()) {
      if (key !== 'from' && key !== 'to')
        throw new ApiError(400, `${key} in query is not supported; supported: from, to`);
    }
    const date = (name: 'from' | 'to'): string | undefined => {
      const all = query.getAll(name);
      if (all.length > 1) throw new ApiError(400, `${name} in query must be given once`);
      const v = all[0];
      const problem = v === undefined ? undefined : dateProblem(v);
      if (problem) throw new ApiError(400, `${name} in query ${problem}, got '${v}'`);
      return v;
    };
    const from = date('from') ?? today();
    // The default range stops at the last supported date.
    const to =
      date('to') ??
      (daysBetween(from, LAST_DATE) < DEFAULT_CALENDAR_DAYS ? LAST_DATE : addDays(from, DEFAULT_CALENDAR_DAYS - 1));
    if (to < from) throw new ApiError(400, `to in query (${to}) must not be before from (${from})`);
    if (daysBetween(from, to) + 1 > MAX_CALENDAR_DAYS) {
      throw new ApiError(
        400,
        `the range from ${from} to ${to} covers ${daysBetween(from, to) + 1} days; at most ${MAX_CALENDAR_DAYS} are allowed`,
      );
    }
    const days = sim.calendar.days(from, to);
    return c.json({
      data: {
        scheme: 'Bacs',
        from,
        to,
        working_days: days.filter((d) => d.working).map((d) => d.date),
        holidays: days.filter((d) => d.holiday).map((d) => ({ date: d.date, name: d.holiday! })),
      },
      links: { self: `/v1/simulator/calendar?from=${from}&to=${to}` },
    });
  });

  return r;
}
