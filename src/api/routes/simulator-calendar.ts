import { Hono } from 'hono';
import { addDays, isIsoDate } from '../../clock/dates.ts';
import { londonDate } from '../../clock/london.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { queryOf } from '../envelope.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';

/** Longest range one calendar request may cover, in days (two years, a leap day included). */
export const MAX_CALENDAR_DAYS = 731;
/** Days shown when `to` is omitted. */
export const DEFAULT_CALENDAR_DAYS = 31;

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** /v1/simulator/calendar?from=&to=: the Bacs working days and holidays of a range of London dates. */
export function simulatorCalendarRoutes({ sim }: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/', (c) => {
    const query = queryOf(c);
    for (const key of query.keys()) {
      if (key !== 'from' && key !== 'to') throw new ApiError(400, `${key} in query is not supported; supported: from, to`);
    }
    const date = (name: 'from' | 'to'): string | undefined => {
      const all = query.getAll(name);
      if (all.length > 1) throw new ApiError(400, `${name} in query must be given once`);
      const v = all[0];
      if (v !== undefined && !isIsoDate(v)) throw new ApiError(400, `${name} in query must be a date (YYYY-MM-DD), got '${v}'`);
      return v;
    };
    const from = date('from') ?? londonDate(sim.clock.now());
    const to = date('to') ?? addDays(from, DEFAULT_CALENDAR_DAYS - 1);
    if (to < from) throw new ApiError(400, `to in query (${to}) must not be before from (${from})`);
    if (daysBetween(from, to) + 1 > MAX_CALENDAR_DAYS) {
      throw new ApiError(400, `the range from ${from} to ${to} covers ${daysBetween(from, to) + 1} days; at most ${MAX_CALENDAR_DAYS} are allowed`);
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

  r.all('/', methodNotAllowed(['GET']));
  return r;
}
