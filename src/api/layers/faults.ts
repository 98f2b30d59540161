// The fault rules a client sets to rehearse its resilience against the double, and which rule, if
// any, answers a given request.
import { randomUUID } from 'node:crypto';

/** What a fault rule does to the requests it matches. */
export interface FaultAttributes {
  route: string;
  method?: string;
  probability?: number;
  count?: number;
  latency_ms?: number;
  status?: 429 | 500 | 502 | 503 | 504;
  retry_after?: number;
  drop?: boolean;
}

export interface FaultRule {
  id: string;
  organisation_id: string;
  attributes: FaultAttributes;
  /** How many more matches a count rule answers. */
  remaining?: number;
  injected: number;
  pattern: RegExp;
}

/** `/v1/organisation/accounts/*` → a RegExp: `*` any run but `/`, `**` anything. */
function patternOf(route: string): RegExp {
  const body = route
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${body}/?$`);
}

/**
 * Fault rules for client resilience tests (issue 15): in memory, never on by default, each scoped
 * to the organisation that set it. `match` picks the rule that answers a request, counting it.
 */
export class Faults {
  readonly #rules = new Map<string, FaultRule>();

  add(organisationId: string, attributes: FaultAttributes): FaultRule {
    const rule: FaultRule = {
      id: randomUUID(),
      organisation_id: organisationId,
      attributes,
      injected: 0,
      pattern: patternOf(attributes.route),
      ...(attributes.count !== undefined ? { remaining: attributes.count } : {}),
    };
    this.#rules.set(rule.id, rule);
    return rule;
  }

  list(organisationId: string): FaultRule[] {
    return [...this.#rules.values()].filter((r) => r.organisation_id === organisationId);
  }

  /** Removes the organisation's rule; false when it has none with that id. */
  delete(organisationId: string, id: string): boolean {
    const rule = this.#rules.get(id);
    if (rule?.organisation_id !== organisationId) return false;
    return this.#rules.delete(id);
  }

  get size(): number {
    return this.#rules.size;
  }

  /** The first of the organisation's rules that answers this request (a count rule is used up). */
  match(
    organisationId: string,
    method: string,
    path: string,
    random: () => number = Math.random,
  ): FaultRule | undefined {
    for (const rule of this.#rules.values()) {
      if (rule.organisation_id !== organisationId) continue;
      const m = rule.attributes.method ?? '*';
      if (m !== '*' && m !== method) continue;
      if (!rule.pattern.test(path)) continue;
      if (rule.remaining === 0) continue;
      if (rule.attributes.probability !== undefined && random() >= rule.attributes.probability) continue;
      if (rule.remaining !== undefined) rule.remaining -= 1;
      rule.injected += 1;
      return rule;
    }
    return undefined;
  }
}
