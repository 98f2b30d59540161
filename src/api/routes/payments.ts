import { Hono } from 'hono';
import { PAYMENT_FILTERS } from '../../sim/payments/payments.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { page, queryOf } from '../envelope.ts';
import { methodNotAllowed } from '../errors.ts';
import { parseFilters } from '../filters.ts';
import { parseId } from '../ids.ts';

/** /v1/transaction/payments: inbound payments (the DDIC contra) and their admissions, read only. */
export function paymentRoutes({ sim }: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/', (c) => {
    const filter = parseFilters(queryOf(c), PAYMENT_FILTERS, { anyOf: true });
    return c.json(page(c, sim.payments.list(c.get('organisationId'), filter)));
  });

  r.get('/:id', (c) => c.json(sim.paths.bodyOf(sim.payments.get(parseId(c.req.param('id')), c.get('organisationId')))));

  r.get('/:id/admissions/:aid', (c) => {
    const admission = sim.payments.getAdmission(
      parseId(c.req.param('id')),
      parseId(c.req.param('aid'), 'admission_id'),
      c.get('organisationId'),
    );
    return c.json(sim.paths.bodyOf(admission));
  });

  r.all('/', methodNotAllowed(['GET']));
  r.all('/:id', methodNotAllowed(['GET']));
  r.all('/:id/admissions/:aid', methodNotAllowed(['GET']));
  return r;
}
