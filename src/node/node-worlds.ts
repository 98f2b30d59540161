// The worlds one node of a shared double serves (docs/shared-double.md, decision 033): the default
// world while it holds that lease, each sandbox whose lease it holds, and which world (and so which
// node) any request is for.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../api/wire/errors.ts';
import { FIXTURES_DIR, readFixtures } from '../fixtures.ts';
import { createNodeSandboxes, createRuntime, type Runtime, type RuntimeOptions } from '../runtime.ts';
import { routeKeyOf, type Sandboxes } from '../sandboxes.ts';
import type { GivenSigningKey } from '../sim/cop/participant.ts';
import { SIGNING_KEYS_META } from '../sim/cop/participant-signing-keys.ts';
import { DEFAULT_LEASE, type LeaseFence } from '../store/postgres-leases.ts';
import { registerRoute } from '../store/postgres-routes.ts';
import { META_TABLE } from '../store/postgres-tables.ts';
import { ClusterDirectory } from './cluster-directory.ts';
import type { NodeCoordinator } from './node-coordinator.ts';
import { sandboxListener } from './sandbox-listener.ts';
import { SandboxRouteBook } from './sandbox-route-book.ts';
import { requestListener } from './server.ts';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** How long a sandbox being loaded waits for the default world's first owner to make the participants' keys. */
const KEYS_WAIT_MS = 15_000;

export interface NodeWorldsOptions {
  runtimeOptions: RuntimeOptions;
  hostname: string;
  /** Called with each default-world runtime this node opens, before it serves (logging, self addresses). */
  onRuntime(runtime: Runtime): void;
}

export class NodeWorlds {
  readonly sandboxes: Sandboxes;
  readonly directory: ClusterDirectory;
  readonly #node: NodeCoordinator;
  readonly #o: NodeWorldsOptions;
  readonly #routes: SandboxRouteBook;
  readonly #sandboxListener: Listener;
  #runtime: Runtime | undefined;
  #defaultListener: Listener | undefined;

  constructor(node: NodeCoordinator, options: NodeWorldsOptions) {
    this.#node = node;
    this.#o = options;
    this.#routes = new SandboxRouteBook(node);
    this.directory = new ClusterDirectory(node, () => this.sandboxes);
    const participants = readFixtures(options.runtimeOptions.fixturesDir ?? FIXTURES_DIR).participants;
    const needsStoredKeys = participants.some((p) => !p.signing_key);
    this.sandboxes = createNodeSandboxes(options.runtimeOptions, {
      claim: async (route, limit) => {
        const claimed = await node.claimNew(route.id, limit);
        if (claimed === 'exists') throw new ApiError(409, `sandbox ${route.id} already exists`);
        if (claimed === 'full') return 'full';
        await node.query((client) => registerRoute(client, route));
        return 'claimed';
      },
      fenceOf: (id) => node.fenceOf(id),
      forget: (id) => node.forget(id),
      participantKeys: () => (needsStoredKeys ? this.#storedKeys() : Promise.resolve({})),
      directory: this.directory,
    });
    this.#sandboxListener = sandboxListener(this.sandboxes, options.hostname);
  }

  /** The default world's runtime while this node serves it. */
  get runtime(): Runtime | undefined {
    return this.#runtime;
  }

  /** Loads `world` on a lease just taken; false when it is gone (a sandbox deleted or expired meanwhile). */
  async open(world: string, fence: LeaseFence): Promise<boolean> {
    if (world !== DEFAULT_LEASE) return this.sandboxes.adopt(world);
    const runtime = await createRuntime({
      ...this.#o.runtimeOptions,
      postgresFence: fence,
      node: { sandboxes: this.sandboxes, directory: this.directory },
    });
    try {
      await runtime.warm();
      this.#o.onRuntime(runtime);
      runtime.start();
    } catch (err) {
      await runtime.close().catch(() => undefined);
      throw err;
    }
    this.#runtime = runtime;
    this.#defaultListener = requestListener(runtime, this.#o.hostname);
    return true;
  }

  async close(world: string): Promise<void> {
    if (world !== DEFAULT_LEASE) return this.sandboxes.release(world);
    const runtime = this.#runtime;
    this.#runtime = undefined;
    this.#defaultListener = undefined;
    await runtime?.close();
  }

  /** The listener of a world this node serves. */
  listenerOf(world: string): Listener | undefined {
    return world === DEFAULT_LEASE ? this.#defaultListener : this.#sandboxListener;
  }

  /**
   * The world a request is for, wherever it is served: a sandbox the request names and the double
   * knows, else the default world (whose owner answers for a sandbox that does not exist).
   */
  async worldOf(path: string, authorization: string | undefined): Promise<string> {
    const key = routeKeyOf(path, authorization);
    if (!key) return DEFAULT_LEASE;
    const id =
      'id' in key
        ? key.id
        : 'client' in key
          ? await this.#routes.find('client', key.client)
          : await this.#routes.find('key', key.keyId);
    if (id === undefined) return DEFAULT_LEASE;
    if (!this.#node.knows(id)) await this.#node.lookup(id);
    return this.#node.knows(id) ? id : DEFAULT_LEASE;
  }

  /**
   * The participants' signing keys as the default world keeps them: its first owner makes them,
   * so a sandbox loaded before that waits for them (every world signs with the same keys).
   */
  async #storedKeys(): Promise<Record<string, GivenSigningKey>> {
    const until = Date.now() + KEYS_WAIT_MS;
    for (;;) {
      const keys = await this.#node
        .query(async (client) => {
          const table = await client.query('SELECT to_regclass($1) IS NOT NULL AS found', [META_TABLE]);
          if (!table.rows[0].found) return undefined;
          const { rows } = await client.query(`SELECT value FROM ${META_TABLE} WHERE key = $1`, [SIGNING_KEYS_META]);
          return rows[0]?.value as Record<string, GivenSigningKey> | undefined;
        })
        .catch(() => undefined);
      if (keys) return keys;
      if (Date.now() > until) return {};
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
