// Played scenarios: each one a record (type `scenarios`) kept with the data, aimed at a resource,
// `pending` until the flow reaches the step it changes, then `applied` with what it did. The
// resource it changed names it in `relationships.scenarios`, so a reader sees why it happened.
import { isoTimestamp } from '../../clock/clock.ts';
import { invalid } from '../errors.ts';
import { Repository, type RepositoryContext } from '../repository.ts';
import { type Resource, relatedId } from '../resource.ts';
import {
  SCENARIO_CATALOGUE,
  SCENARIO_NAMES,
  type ScenarioDefinition,
  type ScenarioName,
} from './scenario-catalogue.ts';

export const SCENARIO_TYPE = 'scenarios';

export interface ScenarioAttributes {
  name: ScenarioName;
  /** `api` (POST /v1/simulator/scenarios, `scheme-sim trigger`) or `magic_value` (a claim amount). */
  source: 'api' | 'magic_value';
  status: 'pending' | 'applied';
  parameters: Record<string, unknown>;
  /** Scheme-clock instant it took effect. */
  applied_on?: string;
  /** What it did, in words. */
  effect?: string;
}
export type Scenario = Resource<ScenarioAttributes>;

export interface ScenarioRequest {
  id: string;
  organisation_id: string;
  name: string;
  target_id?: string;
  parameters?: Record<string, unknown>;
  source?: ScenarioAttributes['source'];
}

/**
 * How a flow plays one scenario. `target` finds the record aimed at (404 when the organisation has
 * none) and refuses one past the step the scenario changes; `now` plays an immediate scenario and
 * says what it did (a deferred one is left pending for its flow to take).
 */
export interface ScenarioPlayer {
  target?(id: string, organisationId: string, parameters: Record<string, unknown>): { id: string; type: string };
  /** Refuses parameters the flow cannot play (a participant that does not exist), before anything is recorded. */
  check?(parameters: Record<string, unknown>, organisationId: string): void;
  now?(scenario: Scenario): string;
}

export class Scenarios {
  readonly records: Repository<ScenarioAttributes>;
  readonly #players = new Map<ScenarioName, ScenarioPlayer>();
  readonly #store: RepositoryContext['store'];

  constructor(ctx: RepositoryContext) {
    this.#store = ctx.store;
    this.records = new Repository<ScenarioAttributes>(ctx, SCENARIO_TYPE, {
      path: (r) => `/v1/simulator/scenarios/${r.id}`,
    });
    this.records.rows.defineIndex('target', (r) => relatedId(r, 'target'));
  }

  get catalogue(): readonly ScenarioDefinition[] {
    return SCENARIO_CATALOGUE;
  }

  /** The flow that owns a scenario says how to play it (each flow registers its own). */
  register(name: ScenarioName, player: ScenarioPlayer): void {
    this.#players.set(name, player);
  }

  /** Records the scenario and plays it now when it is immediate; one unit of the store. */
  trigger(request: ScenarioRequest): Scenario {
    return this.#store.atomically(() => this.#trigger(request));
  }

  #trigger(request: ScenarioRequest): Scenario {
    const definition = SCENARIO_CATALOGUE.find((d) => d.name === request.name);
    const player = this.#players.get(request.name as ScenarioName);
    if (!definition || !player)
      throw invalid(`name ${request.name} is not a scenario; known: ${SCENARIO_NAMES.join(', ')}`);
    const parameters = request.parameters ?? {};
    player.check?.(parameters, request.organisation_id);
    let target: { id: string; type: string } | undefined;
    if (definition.target_type !== undefined) {
      if (request.target_id === undefined)
        throw invalid(`target_id is required by scenario ${definition.name} (a ${definition.target_type} id)`);
      target = player.target?.(request.target_id, request.organisation_id, parameters);
    } else if (request.target_id !== undefined) {
      throw invalid(`target_id is not taken by scenario ${definition.name}: it has no target`);
    }
    const pending = target && this.pendingFor(target.id, definition.name);
    if (pending)
      throw invalid(
        `${target!.type} ${target!.id} already has scenario ${definition.name} pending (scenario ${pending.id})`,
      );
    const scenario = this.records.create({
      id: request.id,
      organisation_id: request.organisation_id,
      attributes: { name: definition.name, source: request.source ?? 'api', status: 'pending', parameters },
      ...(target ? { relationships: { target: { data: [target] } } } : {}),
    });
    return player.now ? this.applied(scenario, player.now(scenario)) : scenario;
  }

  get(id: string, organisationId: string): Scenario {
    return this.records.get(id, organisationId);
  }

  /** The organisation's played scenarios, oldest first; `target_id` narrows to one record's. */
  list(organisationId: string, filter: { target_id?: string; name?: string; status?: string } = {}): Scenario[] {
    const { target_id, ...plain } = filter;
    const rows = this.records.list(organisationId, plain);
    return target_id === undefined ? rows : rows.filter((r) => relatedId(r, 'target') === target_id);
  }

  /** The scenario of that name still waiting for its step on the record, if any. */
  pendingFor(targetId: string, name: ScenarioName): Scenario | undefined {
    return this.records.rows
      .lookup('target', targetId)
      .find((s) => s.attributes.name === name && s.attributes.status === 'pending');
  }

  /** Marks the scenario played at the scheme clock's now, with what it did. */
  applied(scenario: Scenario, effect: string): Scenario {
    return this.records.update(scenario.id, undefined, (r) => ({
      ...r,
      attributes: { ...r.attributes, status: 'applied', applied_on: isoTimestamp(this.records.clock.now()), effect },
    }));
  }
}

/** The record with the scenario added to its `relationships.scenarios` (how a resource names its scenarios). */
export function namingScenario<R extends Resource<object>>(record: R, scenario: Scenario): R {
  const list = record.relationships?.scenarios?.data ?? [];
  return {
    ...record,
    relationships: {
      ...record.relationships,
      scenarios: { data: [...list, { id: scenario.id, type: SCENARIO_TYPE }] },
    },
  };
}
