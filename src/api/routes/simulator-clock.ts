import { Hono } from 'hono';
import { advanceTarget, type AdvanceRequest } from '../../clock/advance.ts';
import { ClockError } from '../../clock/scheme-clock.ts';
import { readJson } from '../body.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { validateOrThrow } from '../validate.ts';

/** /v1/simulator/clock: read and move the scheme clock. */
export function simulatorClockRoutes({ sim }: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const view = () => {
    const next = sim.scheduler.nextDue();
    return { now: sim.clock.now().toISOString(), mode: sim.clock.mode, speed: sim.clock.speed, next_due: next ? next.toISOString() : null };
  };

  r.get('/', (c) => c.json({ data: view() }));

  r.post('/advance', async (c) => {
    const body = validateOrThrow<AdvanceRequest>('clock-advance', await readJson(c));
    const target = advanceTarget(sim.clock.now(), body, sim.calendar);
    if (target.getTime() < sim.clock.now().getTime()) {
      throw new ApiError(409, `to ${target.toISOString()} is before the scheme clock (${sim.clock.now().toISOString()}); the clock only moves forward`);
    }
    try {
      const result = sim.scheduler.advanceTo(target);
      return c.json({ data: { ...view(), advanced_from: result.advanced_from, jobs_run: result.jobs_run } });
    } catch (err) {
      if (err instanceof ClockError) throw new ApiError(409, err.message);
      throw err;
    }
  });

  r.all('/', methodNotAllowed(['GET']));
  r.all('/advance', methodNotAllowed(['POST']));
  return r;
}
