// go-form3's users client reads who its credentials belong to: the route that answers it from the
// world's clients.
import { USERS_PATH, userPath } from '../../sim/security/users.ts';
import type { AppDeps } from '../context.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { page } from '../wire/envelope.ts';
import { parseId } from '../wire/ids.ts';

/**
 * /v1/security/users: Form3's security users API as go-form3's users client reads it, read only.
 * Each client of the world is one user of its organisation (decision 030); a caller sees its own
 * organisation's users.
 */
export function userRoutes({ sim }: AppDeps): RouteGroup {
  const r = defineRoutes(USERS_PATH, 'Users');

  r.get('/', { summary: "List the organisation's users", answer: 'user-list' }, (c) =>
    c.json(page(c, sim.users.list(c.get('organisationId')))),
  );

  r.get('/:id', { summary: 'Fetch a user', answer: 'user-single' }, (c) => {
    const user = sim.users.get(parseId(c.req.param('id'), 'user_id'), c.get('organisationId'));
    return c.json({ data: user, links: { self: userPath(user.id) } });
  });

  r.get(
    '/:id/credentials',
    { summary: "List a user's credentials (client ids, no secrets)", answer: 'user-credential-list' },
    (c) => {
      const id = parseId(c.req.param('id'), 'user_id');
      const data = sim.users.credentials(id, c.get('organisationId'));
      return c.json({ data, links: { self: `${userPath(id)}/credentials` } });
    },
  );

  return r;
}
