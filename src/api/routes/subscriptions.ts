import { Hono } from 'hono';
import {
  SUBSCRIPTION_FILTERS,
  SUBSCRIPTION_TYPE,
  type SubscriptionInput,
} from '../../sim/notifications/subscriptions.ts';
import { readJson } from '../body.ts';
import { assertBodyIdentity } from '../body-identity.ts';
import { assertCallbackHostNotSelf } from '../callback-host.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { readCreateBody } from '../create-body.ts';
import { page, queryOf } from '../envelope.ts';
import { methodNotAllowed } from '../errors.ts';
import { parseFilters } from '../filters.ts';
import { parseId, parseVersionQuery } from '../ids.ts';
import { validateOrThrow } from '../validate.ts';
import { errorView } from '../views/delivery-views.ts';

interface SubscriptionBody {
  data: { id: string; organisation_id: string; version?: number; attributes: SubscriptionInput };
}

/** /v1/notification/subscriptions: who is told about which changes, and where. */
export function subscriptionRoutes(deps: AppDeps): Hono<AppEnv> {
  const { sim } = deps;
  const r = new Hono<AppEnv>();

  r.post('/', async (c) => {
    const input = await readCreateBody<SubscriptionInput>(c, 'subscription-create', SUBSCRIPTION_TYPE, {
      strict: deps.strict,
    });
    await assertCallbackHostNotSelf(deps, input.attributes.callback_uri);
    const s = sim.subscriptions.create(input);
    return c.json(sim.paths.bodyOf(s), 201);
  });

  r.get('/', (c) => {
    const filter = parseFilters(queryOf(c), SUBSCRIPTION_FILTERS);
    return c.json(page(c, sim.subscriptions.list(c.get('organisationId'), filter)));
  });

  r.get('/:id', (c) =>
    c.json(sim.paths.bodyOf(sim.subscriptions.get(parseId(c.req.param('id')), c.get('organisationId')))),
  );

  r.get('/:id/errors', (c) => {
    const s = sim.subscriptions.get(parseId(c.req.param('id')), c.get('organisationId'));
    const failed = sim.outbox.failedAttemptsOf(s.id);
    return c.json(page(c, failed, errorView));
  });

  r.patch('/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    const organisationId = c.get('organisationId');
    const body = validateOrThrow<{
      data: Partial<SubscriptionBody['data']> & { version: number; attributes: SubscriptionInput };
    }>('subscription-update', await readJson(c), 'body', { dropUndeclared: deps.strict !== true });
    assertBodyIdentity(id, organisationId, body.data);
    await assertCallbackHostNotSelf(deps, body.data.attributes.callback_uri);
    return c.json(
      sim.paths.bodyOf(sim.subscriptions.update(id, organisationId, body.data.version, body.data.attributes)),
    );
  });

  r.delete('/:id', (c) => {
    const id = parseId(c.req.param('id'));
    sim.subscriptions.delete(id, c.get('organisationId'), parseVersionQuery(c.req.query('version')));
    return c.body(null, 204);
  });

  r.all('/', methodNotAllowed(['GET', 'POST']));
  r.all('/:id', methodNotAllowed(['GET', 'PATCH', 'DELETE']));
  r.all('/:id/errors', methodNotAllowed(['GET']));
  return r;
}
