// The inbound payments a settled claim makes (its contra), so a client can read the money it got back.
import { PAYMENT_FILTERS } from '../../sim/payments/payments.ts';
import type { AppDeps } from '../context.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { queryOf, resourcePage } from '../wire/envelope.ts';
import { parseFilters } from '../wire/filters.ts';
import { parseId } from '../wire/ids.ts';

/** /v1/transaction/payments: inbound payments (the DDIC contra) and their admissions, read only. */
export function paymentRoutes({ sim }: AppDeps): RouteGroup {
  const r = defineRoutes('/v1/transaction/payments', 'Payments');

  r.get('/', { summary: 'List payments (the DDIC contras)', answer: 'payment-list', filters: PAYMENT_FILTERS }, (c) => {
    const filter = parseFilters(queryOf(c), PAYMENT_FILTERS, { anyOf: true });
    return c.json(resourcePage(c, sim.paths, sim.payments.list(c.get('organisationId'), filter)));
  });

  r.get('/:id', { summary: 'Fetch a payment', answer: 'payment-single' }, (c) =>
    c.json(sim.paths.bodyOf(sim.payments.get(parseId(c.req.param('id')), c.get('organisationId')))),
  );

  r.get('/:id/admissions/:aid', { summary: 'Fetch a payment admission', answer: 'payment-admission-single' }, (c) => {
    const admission = sim.payments.getAdmission(
      parseId(c.req.param('id')),
      parseId(c.req.param('aid'), 'admission_id'),
      c.get('organisationId'),
    );
    return c.json(sim.paths.bodyOf(admission));
  });

  return r;
}
