import { randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import type { ScenarioDefinition } from '../../sim/scenarios/scenario-catalogue.ts';
import { assertOwnOrganisation } from '../auth/middleware.ts';
import { readJson } from '../body.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { page, queryOf } from '../envelope.ts';
import { methodNotAllowed } from '../errors.ts';
import { parseFilters } from '../filters.ts';
import { parseId } from '../ids.ts';
import { validateOrThrow } from '../validate.ts';

interface ScenarioBody {
  data: {
    id?: string;
    organisation_id?: string;
    attributes: { name: string; target_id?: string; parameters?: Record<string, unknown> };
  };
}

const definitionView = ({ name, ...attributes }: ScenarioDefinition) => ({
  type: 'scenario_definitions',
  id: name,
  attributes,
});

/**
 * /v1/simulator/scenarios (docs/scenarios.md): GET the catalogue, POST to play one at a record of
 * the caller's organisation, GET /played and /{id} to read what was played and what it did.
 */
export function simulatorScenarioRoutes({ sim }: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const org = (c: Context<AppEnv>) => c.get('organisationId');

  r.get('/', (c) => c.json({ data: sim.scenarios.catalogue.map(definitionView) }));

  r.post('/', async (c) => {
    const body = validateOrThrow<ScenarioBody>('scenario-create', await readJson(c));
    const { data } = body;
    if (data.organisation_id !== undefined) assertOwnOrganisation(org(c), data.organisation_id);
    const scenario = sim.scenarios.trigger({
      id: data.id?.toLowerCase() ?? randomUUID(),
      organisation_id: org(c),
      name: data.attributes.name,
      ...(data.attributes.target_id !== undefined ? { target_id: data.attributes.target_id.toLowerCase() } : {}),
      ...(data.attributes.parameters !== undefined ? { parameters: data.attributes.parameters } : {}),
    });
    return c.json(sim.paths.bodyOf(scenario), 201);
  });

  r.get('/played', (c) => {
    const filter = parseFilters(queryOf(c), ['target_id', 'name', 'status'] as const);
    return c.json(page(c, sim.scenarios.list(org(c), filter)));
  });

  r.get('/:id', (c) => c.json(sim.paths.bodyOf(sim.scenarios.get(parseId(c.req.param('id')), org(c)))));

  r.all('/', methodNotAllowed(['GET', 'POST']));
  r.all('/played', methodNotAllowed(['GET']));
  r.all('/:id', methodNotAllowed(['GET']));
  return r;
}
