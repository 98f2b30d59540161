// What happened to each notification sent to a client's subscriptions, and a way to send one again,
// so a receiver can be debugged without reading the simulator's logs.
import type { AppDeps } from '../context.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { attemptView, deliveryView } from '../views/delivery-views.ts';
import { page, queryOf } from '../wire/envelope.ts';
import { ApiError } from '../wire/errors.ts';
import { parseFilters } from '../wire/filters.ts';
import { parseId } from '../wire/ids.ts';

export const DELIVERY_FILTERS = [
  'notification_id',
  'subscription_id',
  'status',
  'transport',
  'event_type',
  'record_type',
  'error_category',
] as const;

/** /v1/simulator/deliveries: every delivery attempt of the caller's organisation, and redelivery. */
export function simulatorDeliveryRoutes({ sim }: AppDeps): RouteGroup {
  const r = defineRoutes('/v1/simulator/deliveries', 'Simulator');

  r.get(
    '/',
    { summary: 'Notification delivery attempts', answer: 'delivery-attempt-list', filters: DELIVERY_FILTERS },
    (c) => {
      const attempts = sim.outbox.attemptsOf(c.get('organisationId'), parseFilters(queryOf(c), DELIVERY_FILTERS));
      return c.json(page(c, attempts, attemptView));
    },
  );

  r.get('/pending', { summary: 'Deliveries still to be made', answer: 'notification-delivery-list' }, (c) => {
    const org = c.get('organisationId');
    const pending = sim.outbox
      .pending()
      .filter((e) => e.organisation_id === org)
      .sort((a, b) => a.next_attempt_ms - b.next_attempt_ms);
    return c.json(page(c, pending, (e) => deliveryView(e).data));
  });

  r.get('/:id', { summary: 'One delivery', answer: 'notification-delivery' }, (c) => {
    const id = parseId(c.req.param('id'));
    const entry = sim.outbox.find(id, c.get('organisationId'));
    if (!entry) throw new ApiError(404, `delivery ${id} does not exist`);
    return c.json(deliveryView(entry));
  });

  r.post(
    '/:id/redeliver',
    {
      summary: 'Send a delivery again',
      status: 202,
      answer: 'notification-delivery',
      rules: [
        {
          rule: 'the delivery has finished, its subscription still exists and is active, and it was not redelivered within the last interval (src/sim/notifications/outbox-redelivery.ts)',
          answers: [
            {
              status: 409,
              error: 'delivery <id> is already pending (attempt <n> due at <time>); redeliver it once it has finished',
            },
            { status: 409, error: 'subscription <id> of delivery <id> no longer exists' },
            {
              status: 409,
              error: 'subscription <id> is deactivated; activate it (PATCH deactivated false) before redelivering',
            },
            { status: 429, error: 'delivery <id> was redelivered less than <n> s ago; try again in <n> s' },
          ],
        },
      ],
    },
    (c, answer) => {
      const id = parseId(c.req.param('id'));
      return answer(deliveryView(sim.outbox.redeliver(id, c.get('organisationId'))));
    },
  );

  return r;
}
