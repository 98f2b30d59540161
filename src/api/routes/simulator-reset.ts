import { Hono } from 'hono';
import { optionalJson } from '../body.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { methodNotAllowed } from '../errors.ts';
import { validateOrThrow } from '../validate.ts';
import { clockView } from '../views/clock-view.ts';

/**
 * POST /v1/simulator/reset: back to an empty simulator with the clock at its start state. Answers
 * with the clock after the reset; the app's commit middleware writes the emptied store first.
 */
export function simulatorResetRoutes({ sim }: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/', async (c) => {
    validateOrThrow('empty-body', await optionalJson(c));
    sim.reset();
    return c.json({ data: clockView(sim), links: { self: '/v1/simulator/clock' } });
  });
  r.all('/', methodNotAllowed(['POST']));
  return r;
}
