// The sandboxes of a shared double as the sandbox routes see them (docs/shared-double.md): created
// on the least-loaded live node, listed across every node, read and deleted through their owner.
import type { SandboxDirectory, SandboxEntry, SandboxRequest, SandboxTarget } from '../api/sandbox-directory.ts';
import { ApiError } from '../api/wire/errors.ts';
import type { Sandboxes } from '../sandboxes.ts';
import { NODE_CALLS, NODE_SECRET, remoteEntry, type SandboxFacts } from './node-calls.ts';
import type { NodeCoordinator } from './node-coordinator.ts';

/** How long a call to another node may take before this node gives up on it. */
const CALL_TIMEOUT_MS = 15_000;

export class ClusterDirectory implements SandboxDirectory {
  readonly #node: NodeCoordinator;
  readonly #local: () => Sandboxes;

  /** `local` is this node's sandboxes (made after this directory, which they answer from). */
  constructor(node: NodeCoordinator, local: () => Sandboxes) {
    this.#node = node;
    this.#local = local;
  }

  get creation() {
    return this.#local().creation;
  }

  get recordQuota() {
    return this.#local().recordQuota;
  }

  route(path: string, authorization: string | undefined): SandboxTarget | undefined {
    return this.#local().route(path, authorization);
  }

  /** On the live node that serves the fewest worlds (this one on a tie), so sandboxes spread out. */
  async create(request: SandboxRequest): Promise<SandboxEntry> {
    const nodes = await this.#node.liveNodes().catch(() => []);
    const self = nodes.find((n) => n.nodeId === this.#node.nodeId);
    const least = nodes.reduce<(typeof nodes)[number] | undefined>(
      (best, n) => (best === undefined || n.owns.length < best.owns.length ? n : best),
      self,
    );
    if (!least || least.nodeId === this.#node.nodeId) return this.#local().create(request);
    const res = await this.#call(least.advertiseUrl, 'POST', '', request).catch(() => undefined);
    // The chosen node is unreachable: the sandbox is made here rather than not at all.
    if (!res) return this.#local().create(request);
    return remoteEntry((await this.#answer(res)) as SandboxFacts);
  }

  async get(id: string): Promise<SandboxEntry | undefined> {
    const local = this.#local().get(id);
    if (local) return local;
    const owner = await this.#ownerUrl(id);
    if (!owner) return undefined;
    const res = await this.#call(owner, 'GET', id).catch(() => undefined);
    if (!res || res.status === 404) return undefined;
    return remoteEntry((await this.#answer(res)) as SandboxFacts);
  }

  /** Every live node's sandboxes (one whose owner is being replaced shows again once it is served). */
  async list(): Promise<SandboxEntry[]> {
    const entries = new Map<string, SandboxEntry>(
      this.#local()
        .list()
        .map((e) => [e.id, e]),
    );
    const others = (await this.#node.liveNodes().catch(() => [])).filter((n) => n.nodeId !== this.#node.nodeId);
    const lists = await Promise.all(
      others.map(async (n) => {
        const res = await this.#call(n.advertiseUrl, 'GET', '').catch(() => undefined);
        return res?.ok ? ((await res.json()) as SandboxFacts[]) : [];
      }),
    );
    for (const facts of lists.flat()) if (!entries.has(facts.id)) entries.set(facts.id, remoteEntry(facts));
    return [...entries.values()].sort((a, b) => a.createdOn.localeCompare(b.createdOn));
  }

  async delete(id: string): Promise<boolean> {
    if (this.#local().get(id)) return this.#local().delete(id);
    const owner = await this.#ownerUrl(id);
    if (!owner) return false;
    const res = await this.#call(owner, 'DELETE', id);
    if (res.status === 404) return false;
    await this.#answer(res);
    return true;
  }

  async #ownerUrl(id: string): Promise<string | undefined> {
    if (!this.#node.ownerOf(id)) await this.#node.lookup(id);
    const owner = this.#node.ownerOf(id);
    return owner && owner.nodeId !== this.#node.nodeId ? owner.url : undefined;
  }

  #call(url: string, method: string, id: string, body?: unknown): Promise<Response> {
    return fetch(`${url}${NODE_CALLS}${id ? `/${id}` : ''}`, {
      method,
      headers: { [NODE_SECRET]: this.#node.secret, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  }

  /** The other node's answer, or its refusal as this node's. */
  async #answer(res: Response): Promise<unknown> {
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (res.ok) return parsed;
    const message = (parsed as { error_message?: string } | undefined)?.error_message ?? `status ${res.status}`;
    throw new ApiError(res.status as ConstructorParameters<typeof ApiError>[0], message);
  }
}
