// Tests start clean without restarting the server: the route that puts an organisation (or, for an
// admin, everything) back to the fixtures.
import { asCaller } from '../as-caller.ts';
import { requireAdmin } from '../auth/roles.ts';
import { optionalJson } from '../body/body.ts';
import { validateOrThrow } from '../body/validate.ts';
import type { AppDeps } from '../context.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { clockView } from '../views/clock-view.ts';

/**
 * POST /v1/simulator/reset. Without a body (or `{}`, or `{"scope": "organisation"}`): the caller's
 * organisation back to the fixtures; its records, deliveries, reports and jobs go, every other
 * organisation and the shared clock stay. `{"scope": "all"}` (admin only): every record, job and
 * meta but the keys, and the clock back to its start. Either runs in slices as long work: it waits
 * for an advance running, and change requests wait for it. The app's commit middleware writes the
 * store before the answer.
 */
export function simulatorResetRoutes(deps: AppDeps): RouteGroup {
  const { sim } = deps;
  const r = defineRoutes('/v1/simulator/reset', 'Simulator');
  r.post(
    '/',
    { summary: "Reset the caller's organisation (or all, admin)", body: 'simulator-reset', answer: 'clock' },
    async (c) => {
      const body = validateOrThrow<{ scope?: 'organisation' | 'all' }>('simulator-reset', await optionalJson(c));
      const organisationId = c.get('organisationId');
      if (body.scope === 'all') {
        requireAdmin(c, deps, 'a reset of every organisation (scope all)');
        await sim.longWork.exclusive('a reset', () => sim.reset((work) => asCaller(c, work)));
        return c.json({
          data: clockView(sim, organisationId),
          links: { self: '/v1/simulator/clock' },
          meta: { reset: { scope: 'all' } },
        });
      }
      const counts = await sim.longWork.exclusive('a reset', () =>
        sim.resetOrganisation(organisationId, (work) => asCaller(c, work)),
      );
      return c.json({
        data: clockView(sim, organisationId),
        links: { self: '/v1/simulator/clock' },
        meta: { reset: { scope: 'organisation', organisation_id: organisationId, ...counts } },
      });
    },
  );
  return r;
}
