// Every node of a shared double finds any sandbox by the client id of a token request or the key id
// of a signed request, loaded on it or not: a copy of the database's routes, read each round, and
// asked of the database for a key the copy lacks (a sandbox created since).
import { findRoute, readRoutes, type SandboxRoute } from '../store/postgres-routes.ts';
import type { NodeCoordinator } from './node-coordinator.ts';

/** Keys looked up and not found are remembered until the next round, at most this many. */
const MAX_MISSING = 10_000;

export class SandboxRouteBook {
  readonly #node: NodeCoordinator;
  #byClient = new Map<string, string>();
  #byKey = new Map<string, string>();
  readonly #missing = new Set<string>();

  constructor(node: NodeCoordinator) {
    this.#node = node;
    node.eachRound(async (client) => this.#fill(await readRoutes(client)));
  }

  /** The sandbox a client id (`client`) or a key id (`key`) belongs to; undefined: none (the default world's). */
  async find(by: 'client' | 'key', value: string): Promise<string | undefined> {
    const known = (by === 'client' ? this.#byClient : this.#byKey).get(value);
    if (known !== undefined) return known;
    const missingKey = `${by}:${value}`;
    if (this.#missing.has(missingKey)) return undefined;
    const id = await this.#node.query((client) => findRoute(client, by, value)).catch(() => undefined);
    if (id === undefined) {
      if (this.#missing.size >= MAX_MISSING) this.#missing.clear();
      this.#missing.add(missingKey);
    } else (by === 'client' ? this.#byClient : this.#byKey).set(value, id);
    return id;
  }

  #fill(routes: SandboxRoute[]): void {
    const byClient = new Map<string, string>();
    const byKey = new Map<string, string>();
    for (const r of routes) {
      for (const c of r.clientIds) byClient.set(c, r.id);
      for (const k of r.keyIds) byKey.set(k, r.id);
    }
    this.#byClient = byClient;
    this.#byKey = byKey;
    this.#missing.clear();
  }
}
