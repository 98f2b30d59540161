// The HTTP face of fault injection (docs/faults.md): a client sets the latency, errors and dropped
// connections it wants to rehearse against.
import type { Context } from 'hono';
import { readJson } from '../body/body.ts';
import { validateOrThrow } from '../body/validate.ts';
import type { AppEnv } from '../context.ts';
import type { FaultAttributes, FaultRule, Faults } from '../layers/faults.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { ApiError } from '../wire/errors.ts';
import { parseId } from '../wire/ids.ts';

const PATH = '/v1/simulator/faults';

function view(rule: FaultRule) {
  return {
    type: 'faults',
    id: rule.id,
    organisation_id: rule.organisation_id,
    attributes: {
      ...rule.attributes,
      ...(rule.remaining !== undefined ? { remaining: rule.remaining } : {}),
      injected: rule.injected,
    },
  };
}

/**
 * /v1/simulator/faults: the caller's fault rules (docs/faults.md). POST adds one, GET lists them,
 * DELETE /{id} removes one, DELETE / removes all. Rules live in memory: a restart clears them.
 */
export function simulatorFaultRoutes(faults: Faults): RouteGroup {
  const r = defineRoutes('/v1/simulator/faults', 'Simulator');
  const org = (c: Context<AppEnv>) => c.get('organisationId');

  r.post('/', { summary: 'Set a fault rule', status: 201, body: 'fault-create' }, async (c, answer) => {
    const body = validateOrThrow<{ data: { attributes: FaultAttributes } }>('fault-create', await readJson(c));
    const rule = faults.add(org(c), body.data.attributes);
    return answer({ data: view(rule), links: { self: `${PATH}/${rule.id}` } });
  });
  r.get('/', { summary: 'Fault rules', answer: 'fault-list' }, (c) => c.json({ data: faults.list(org(c)).map(view) }));
  r.delete('/', { summary: 'Remove every fault rule', status: 204 }, (c, answer) => {
    for (const rule of faults.list(org(c))) faults.delete(org(c), rule.id);
    return answer();
  });
  r.delete('/:id', { summary: 'Remove a fault rule', status: 204 }, (c, answer) => {
    const id = parseId(c.req.param('id'));
    if (!faults.delete(org(c), id)) throw new ApiError(404, `record ${id} does not exist`);
    return answer();
  });
  return r;
}
