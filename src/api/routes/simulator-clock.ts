// A test drives time through these routes: the scheme clock read, advanced by working days or to a
// date, frozen and resumed; an advance answers with the jobs it ran.
import type { Context } from 'hono';
import { ADVANCE_UNITS, AdvanceRefused, type AdvanceRequest, advanceTarget, unitOf } from '../../clock/advance.ts';
import { ClockError } from '../../clock/scheme-clock.ts';
import { asCaller } from '../as-caller.ts';
import { requireAdmin } from '../auth/roles.ts';
import { optionalJson, readJson } from '../body/body.ts';
import { validateOrThrow } from '../body/validate.ts';
import type { AppDeps } from '../context.ts';
import { defineRoutes, type RouteGroup, type RuleBeyondSchema } from '../route-declaration.ts';
import { clockView } from '../views/clock-view.ts';
import { ApiError } from '../wire/errors.ts';

/** How many runs an advance answer lists (failed runs beyond it too); `jobs_run_count` counts them all. */
export const MAX_LISTED_RUNS = 1000;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const UNITS = ADVANCE_UNITS.join(', ');

/**
 * Checks an advance body; 400 naming the field and rule. "Exactly one of" is the schema's (a
 * oneOf), worded here, once the rest of the schema holds, to name the units given.
 */
function parseAdvance(body: unknown): AdvanceRequest {
  if (!isObject(body)) throw new ApiError(400, `body must be a JSON object with exactly one of ${UNITS}`);
  validateOrThrow('clock-advance', body, 'body', {
    wordedByCaller: (e) => e.instancePath === '' && e.keyword === 'errorMessage',
  });
  const given = ADVANCE_UNITS.filter((k) => k in body);
  if (given.length === 0)
    throw new ApiError(400, `validation failure list: body must have exactly one of ${UNITS}; got none`);
  if (given.length > 1)
    throw new ApiError(
      400,
      `validation failure list: body must have exactly one of ${UNITS}; got ${given.join(' and ')}`,
    );
  return body as AdvanceRequest;
}

/** Who may move the shared clock, and where it may go from where it is. */
const ADVANCE_RULES: readonly RuleBeyondSchema[] = [
  {
    rule: 'the caller is an administrator (the clock is every organisation’s)',
    answers: [
      {
        status: 403,
        error: 'advancing the scheme clock needs a client with role admin; client <client> has role <role> <rest>',
      },
    ],
  },
  {
    rule: 'the target is not before the scheme clock, inside the dates the simulator supports, and at most five years after the clock',
    answers: [
      { status: 409, error: '<unit> (<instant>) is before the scheme clock (<instant>); the clock only moves forward' },
      {
        status: 400,
        error: '<unit> moves the clock to <instant>, more than 5 years after the scheme clock (at most <instant>)',
      },
      { status: 400, error: '<unit> moves the clock to <instant>, outside the dates the simulator supports (<range>)' },
      { status: 400, error: '<unit> moves the clock outside the dates the simulator supports (<range>)' },
    ],
  },
  {
    rule: 'one advance at a time',
    answers: [{ status: 409, error: 'an advance of the scheme clock is already running; <rest>' }],
  },
];

const ALREADY_ADVANCING =
  'an advance of the scheme clock is already running; try again once it has finished (GET /v1/simulator/clock shows the clock)';

/** /v1/simulator/clock: read, advance, freeze and resume the scheme clock. */
export function simulatorClockRoutes(deps: AppDeps): RouteGroup {
  const { sim } = deps;
  const r = defineRoutes('/v1/simulator/clock', 'Simulator');
  const answer = (c: Context, data: object) => c.json({ data, links: { self: '/v1/simulator/clock' } });

  r.get('/', { summary: 'The scheme clock', answer: 'clock' }, (c) =>
    answer(c, clockView(sim, c.get('organisationId'))),
  );

  r.post(
    '/advance',
    {
      summary: 'Advance the scheme clock, running every job due',
      body: 'clock-advance',
      answer: 'clock-advanced',
      rules: ADVANCE_RULES,
    },
    async (c) => {
      requireAdmin(c, deps, 'advancing the scheme clock');
      const request = parseAdvance(await readJson(c));
      // One advance at a time: a second one is refused rather than queued (a client retries it).
      if (sim.scheduler.advancing) throw new ApiError(409, ALREADY_ADVANCING);
      // The advance is long work: it waits for a reset running, and change requests wait for it.
      // Reads are answered between its slices.
      return sim.longWork.exclusive('an advance', async () => {
        try {
          // One reading of the clock (a running clock moves between two reads): the target is
          // computed from it and checked against it.
          const now = sim.clock.now();
          const target = advanceTarget(now, request, sim.calendar);
          // The clock is shared, so an advance runs every organisation's jobs; the answer counts and
          // lists only the caller's own (and those of no organisation). What they change is made by
          // the caller (docs/notifications.md), slice by slice: the slices are apart in time.
          const own = c.get('organisationId');
          const result = await sim.scheduler.advanceInSlices(target, {
            list: MAX_LISTED_RUNS,
            from: now,
            viewer: own,
            asked: unitOf(request),
            within: (slice) => asCaller(c, slice),
          });
          return answer(c, {
            ...clockView(sim, own),
            advanced_from: result.advanced_from,
            jobs_run_count: result.jobs_run_count,
            jobs_run_by_kind: result.jobs_run_by_kind,
            jobs_run: result.jobs_run.map(({ organisation_id: _, ...run }) => run),
          });
        } catch (err) {
          // The clock's own refusals (src/clock/advance.ts), as they are worded there.
          if (err instanceof AdvanceRefused) throw new ApiError(err.reason === 'backward' ? 409 : 400, err.message);
          if (err instanceof ClockError)
            throw new ApiError(409, sim.scheduler.advancing ? ALREADY_ADVANCING : err.message);
          throw err;
        }
      });
    },
  );

  r.post(
    '/freeze',
    {
      summary: 'Freeze the scheme clock',
      answer: 'clock',
      rules: [
        {
          rule: 'the caller is an administrator',
          answers: [
            {
              status: 403,
              error: 'freezing the scheme clock needs a client with role admin; client <client> has role <role> <rest>',
            },
          ],
        },
      ],
    },
    async (c) => {
      requireAdmin(c, deps, 'freezing the scheme clock');
      validateOrThrow('empty-body', await optionalJson(c));
      sim.clock.freeze();
      return answer(c, clockView(sim, c.get('organisationId')));
    },
  );

  r.post(
    '/resume',
    {
      summary: 'Resume the scheme clock',
      body: 'clock-resume',
      answer: 'clock',
      rules: [
        {
          rule: 'the caller is an administrator',
          answers: [
            {
              status: 403,
              error: 'resuming the scheme clock needs a client with role admin; client <client> has role <role> <rest>',
            },
          ],
        },
      ],
    },
    async (c) => {
      requireAdmin(c, deps, 'resuming the scheme clock');
      const body = validateOrThrow<{ speed?: number }>('clock-resume', await optionalJson(c));
      try {
        sim.clock.resume(body.speed);
      } catch (err) {
        if (err instanceof ClockError) throw new ApiError(400, `speed in body: ${err.message}`);
        throw err;
      }
      return answer(c, clockView(sim, c.get('organisationId')));
    },
  );

  return r;
}
