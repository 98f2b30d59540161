// The unhappy paths on demand (docs/scenarios.md): a test plays a refusal, a late contra or a failed
// delivery at one of its records instead of waiting for the scheme to produce one.
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { ScenarioDefinition } from '../../sim/scenarios/scenario-catalogue.ts';
import { asCaller } from '../as-caller.ts';
import { assertOwnOrganisation } from '../auth/middleware.ts';
import { readJson } from '../body/body.ts';
import { validateOrThrow } from '../body/validate.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { defineRoutes, ID_USED_ONCE, type RouteGroup } from '../route-declaration.ts';
import { page, queryOf } from '../wire/envelope.ts';
import { parseFilters } from '../wire/filters.ts';
import { parseId } from '../wire/ids.ts';

/** Filters of the played scenarios. */
const PLAYED_FILTERS = ['target_id', 'name', 'status'] as const;

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
export function simulatorScenarioRoutes({ sim }: AppDeps): RouteGroup {
  const r = defineRoutes('/v1/simulator/scenarios', 'Simulator');
  const org = (c: Context<AppEnv>) => c.get('organisationId');

  r.get('/', { summary: 'The scenario catalogue', answer: 'scenario-catalogue' }, (c) =>
    c.json({ data: sim.scenarios.catalogue.map(definitionView) }),
  );

  r.post(
    '/',
    {
      summary: 'Play a scenario',
      status: 201,
      body: 'scenario-create',
      answer: 'scenario-single',
      rules: [
        {
          rule: "`target_id` is a record of the caller's organisation, of the scenario's target type, at a step the scenario can still change",
          answers: [
            { status: 404, error: 'record <id> does not exist' },
            {
              status: 404,
              error: 'no notification about record <id> was sent to a subscription of organisation <organisation_id>',
            },
            { status: 400, error: 'scenario <name> cannot be played on claim submission <id>: <why>' },
            { status: 400, error: 'report <id> cannot fail its admission: admission <id> has already failed' },
            { status: 400, error: '<type> <id> already has scenario <name> pending (scenario <id>)' },
          ],
        },
        {
          rule: '`parameters.open_banking_id` names a participant; `parameters.report_type` one of the report catalogue',
          answers: [
            { status: 400, error: 'parameters.open_banking_id must name a participant; known: <ids>' },
            { status: 400, error: 'report_type <type> is not in the report catalogue; known: <types>' },
          ],
        },
        ID_USED_ONCE,
      ],
    },
    async (c, answer) => {
      const body = validateOrThrow<ScenarioBody>('scenario-create', await readJson(c));
      const { data } = body;
      if (data.organisation_id !== undefined) assertOwnOrganisation(org(c), data.organisation_id);
      const scenario = asCaller(c, () =>
        sim.scenarios.trigger({
          id: data.id?.toLowerCase() ?? randomUUID(),
          organisation_id: org(c),
          name: data.attributes.name,
          ...(data.attributes.target_id !== undefined ? { target_id: data.attributes.target_id.toLowerCase() } : {}),
          ...(data.attributes.parameters !== undefined ? { parameters: data.attributes.parameters } : {}),
        }),
      );
      return answer(sim.paths.bodyOf(scenario));
    },
  );

  r.get('/played', { summary: 'Played scenarios', answer: 'scenario-list', filters: PLAYED_FILTERS }, (c) => {
    const filter = parseFilters(queryOf(c), PLAYED_FILTERS);
    return c.json(page(c, sim.scenarios.list(org(c), filter)));
  });

  r.get('/:id', { summary: 'One played scenario', answer: 'scenario-single' }, (c) =>
    c.json(sim.paths.bodyOf(sim.scenarios.get(parseId(c.req.param('id')), org(c)))),
  );

  return r;
}
