// A receiver verifies notification signatures with the platform's public keys: the route it reads
// them from.
import type { Context } from 'hono';
import type { StoredSigningKey } from '../../sim/notifications/notification-signing-keys.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { page } from '../wire/envelope.ts';
import { ApiError } from '../wire/errors.ts';
import { parseId } from '../wire/ids.ts';

const PATH = '/v1/platform/security/signing_keys';

/**
 * /v1/platform/security/signing_keys: the public keys notifications are signed with, in Form3's
 * resource shape (go-form3 models/signing_keys_*.go). The keys are the platform's, not an
 * organisation's: `organisation_id` is the caller's, as the model requires one (an inference,
 * docs/notifications.md). `status` says which key signs now.
 */
export function notificationSigningKeyRoutes({ sim }: AppDeps): RouteGroup {
  const r = defineRoutes('/v1/platform/security/signing_keys', 'Notifications');
  const view = (c: Context<AppEnv>) => (k: StoredSigningKey) => ({
    type: 'signing_keys',
    id: k.id,
    version: 0,
    organisation_id: c.get('organisationId'),
    created_on: k.created_on,
    modified_on: k.retired_on ?? k.created_on,
    attributes: { public_key: k.public_key, status: k.retired_on ? 'retired' : 'active' },
  });

  r.get('/', { summary: 'Keys notifications are signed with', answer: 'signing-key-list' }, (c) => {
    sim.notificationKeys.current(); // a key exists before anything was signed
    return c.json(page(c, sim.notificationKeys.all(), view(c)));
  });

  r.get('/:id', { summary: 'One notification signing key', answer: 'signing-key-single' }, (c) => {
    const id = parseId(c.req.param('id'), 'signing_key_id');
    const key = sim.notificationKeys.find(id);
    if (!key) throw new ApiError(404, `record ${id} does not exist`);
    return c.json({ data: view(c)(key), links: { self: `${PATH}/${key.id}` } });
  });

  return r;
}
