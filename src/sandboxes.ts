// The server's sandboxes: whole worlds (own store, clock, clients, records, journal, settings) made,
// found, kept across restarts and deleted on a running server, so parallel test runs never meet.
// docs/sandboxes.md; decision 025.
import { randomUUID } from 'node:crypto';
import type { OAuthClient } from './api/auth/clients.ts';
import type { JournalEntry } from './api/journal/request-journal.ts';
import type {
  SandboxCreation,
  SandboxDirectory,
  SandboxEntry,
  SandboxRequest,
  SandboxSettings,
  SandboxTarget,
} from './api/sandbox-directory.ts';
import { clockView } from './api/views/clock-view.ts';
import { ApiError } from './api/wire/errors.ts';
import type { ClockState } from './clock/scheme-clock.ts';
import type { Fixtures } from './fixtures.ts';
import {
  checkLimits,
  clockStartOf,
  DEFAULT_LIMITS,
  expiryOf,
  newClients,
  type SandboxLimits,
  thresholdsOf,
} from './sandbox-requests.ts';
import { basicClientId, hexOf, KEY_ID, PREFIX, sbxHexOf } from './sandbox-routing.ts';
import { type SandboxStorage, sandboxStorage } from './sandbox-storage.ts';
import type { GivenSigningKey } from './sim/cop/participant.ts';
import { type Mode, resolveMode } from './sim/mode.ts';
import type { RecordCheck } from './store/load-check.ts';
import type { LeaseFence, Store } from './store/store.ts';
import { assembleWorld, type World, type WorldOptions } from './world.ts';

export { DEFAULT_SANDBOX } from './api/sandbox-directory.ts';
export { DEFAULT_LIMITS, type SandboxLimits } from './sandbox-requests.ts';
export { type RouteKey, routeKeyOf } from './sandbox-routing.ts';

/** How often expired sandboxes are looked for (wall time); an expired one is also refused on sight. */
const SWEEP_INTERVAL_MS = 60_000;

/** What a sandbox's store keeps of its definition (meta key `sandbox`, schema stored-meta). */
interface StoredSandbox {
  id: string;
  created_on: string;
  expires_at: string;
  seed: 'fixtures' | 'none';
  settings: SandboxSettings;
  clock?: ClockState;
  clients: OAuthClient[];
}

/** The world-level settings every sandbox shares with the default world (runtime.ts worldSettings). */
export type SharedWorldSettings = Omit<
  WorldOptions,
  'id' | 'store' | 'mode' | 'fixtures' | 'clients' | 'participantKeys'
>;

export interface SandboxesOptions {
  fixtures: Fixtures;
  mode: Mode;
  /** The clients each sandbox gets new ids, secrets and key ids of (the server's clients file). */
  clientTemplate: OAuthClient[];
  shared: SharedWorldSettings;
  /** Where the default world's store is: sandboxes keep theirs beside it, in the same engine. */
  location: { memory: true } | { file: string } | { postgres: string; fence?: LeaseFence };
  check?: RecordCheck;
  limits?: Partial<SandboxLimits>;
  warn?: (message: string) => void;
  /** One node of a shared double: it loads only the sandboxes whose lease it holds (docs/shared-double.md). */
  node?: SandboxNode;
}

/**
 * What a node of a shared double gives its sandboxes: each sandbox has a lease of its own, taken
 * on creation and proved by each commit, and routing keys every node can find (decision 033).
 */
export interface SandboxNode {
  /**
   * Takes a new sandbox's lease and records its routing keys before its store is made; a 409 when
   * the id is taken, `full` when the double holds `limit` sandboxes already (on all its nodes).
   */
  claim(
    route: { id: string; expiresMs: number; clientIds: string[]; keyIds: string[] },
    limit: number,
  ): Promise<'claimed' | 'full'>;
  /** What a sandbox's commits prove: its lease at the epoch this node holds. */
  fenceOf(id: string): LeaseFence;
  /** A sandbox deleted (or found expired): its lease and routes go. */
  forget(id: string): Promise<void>;
  /** The participants' signing keys as the default world keeps them (every world signs with the same). */
  participantKeys(): Promise<Record<string, GivenSigningKey>>;
  /** The directory the sandbox routes of each world answer from: one spanning every node. */
  directory: SandboxDirectory;
}

/** One live sandbox: its world and its definition. */
class Sandbox implements SandboxEntry {
  readonly world: World;
  readonly def: StoredSandbox;
  readonly #expiresMs: number;
  constructor(world: World, def: StoredSandbox) {
    this.world = world;
    this.def = def;
    this.#expiresMs = Date.parse(def.expires_at);
  }
  get id() {
    return this.def.id;
  }
  get createdOn() {
    return this.def.created_on;
  }
  get expiresAt() {
    return this.def.expires_at;
  }
  get seed() {
    return this.def.seed;
  }
  get settings() {
    return this.def.settings;
  }
  get clients() {
    return this.def.clients;
  }
  get app() {
    return this.world.app;
  }
  expired(nowMs: number): boolean {
    return nowMs >= this.#expiresMs;
  }
  clock(): object {
    return clockView(this.world.sim, this.def.clients[0]!.organisation_id);
  }
  recordCount(): number {
    return this.world.recordCount();
  }
}

/** A world a request is routed to, at the Node adapter (which needs the world, not only its app). */
export type WorldTarget = { world: World; path?: string } | { refused: 401 | 404; message: string };

export class Sandboxes implements SandboxDirectory {
  readonly creation: SandboxCreation;
  readonly recordQuota: number;
  readonly #limits: SandboxLimits;
  readonly #o: SandboxesOptions;
  readonly #storage: SandboxStorage;
  readonly #byId = new Map<string, Sandbox>();
  /** The 32 hex digits of an id, as a `sbx_` token carries them. */
  readonly #byHex = new Map<string, Sandbox>();
  readonly #byClient = new Map<string, Sandbox>();
  readonly #byKey = new Map<string, Sandbox>();
  /** Creations under way, counted against the limit before their world exists. */
  #pending = new Set<string>();
  readonly #selfAddresses: string[] = [];
  readonly #requestListeners: Array<(entry: JournalEntry, sandboxId: string) => void> = [];
  #default: World | undefined;
  #started = false;
  #sweeper: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  /**
   * An empty store made ahead for the next create without an id of its own: making a store durable
   * (its folder, snapshot and journal, or its schema) is most of a create's time on disk, so it is
   * done between creates rather than in one. Made only once a sandbox has been created.
   */
  #spare: Promise<{ id: string; store: Store } | undefined> | undefined;

  constructor(options: SandboxesOptions) {
    this.#o = options;
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits };
    checkLimits(this.#limits);
    this.creation = this.#limits.creation;
    this.recordQuota = this.#limits.recordQuota;
    const location = options.location;
    const node = options.node;
    this.#storage = sandboxStorage(
      node && 'postgres' in location ? { ...location, fenceOf: (id) => node.fenceOf(id) } : location,
      {
        ...(options.check ? { check: options.check } : {}),
        ...(options.warn ? { warn: options.warn } : {}),
      },
    );
  }

  /** Opens every sandbox the storage keeps (a restart keeps them all); expired ones are deleted. */
  async open(defaultWorld: World): Promise<void> {
    this.#default = defaultWorld;
    // A node loads a sandbox when it takes its lease (adopt), not all of them.
    if (this.#o.node) return;
    for (const id of await this.#storage.list()) {
      let store: Store;
      try {
        store = await this.#storage.open(id);
      } catch (err) {
        this.#warn(`sandbox ${id} was not opened: ${(err as Error).message}`);
        continue;
      }
      const def = store.getMeta<StoredSandbox>('sandbox');
      if (!def) {
        // A store made ahead for a create that never came (the server stopped): nothing to keep.
        await store.close().catch(() => undefined);
        await this.#storage.remove(id).catch(() => undefined);
        continue;
      }
      if (def.id !== id) {
        await store.close().catch(() => undefined);
        this.#warn(`sandbox ${id} was not opened: its store holds the definition of sandbox ${def.id}`);
        continue;
      }
      if (Date.parse(def.expires_at) <= this.#now()) {
        await store.close().catch(() => undefined);
        await this.#storage.remove(id);
        continue;
      }
      this.#add(new Sandbox(await this.#assemble(store, def), def));
    }
  }

  /**
   * A node took sandbox `id`'s lease: loads it from its storage and serves it. False when it is
   * not there to serve (deleted, expired, or a create that never finished): its lease and routes go.
   */
  async adopt(id: string): Promise<boolean> {
    if (this.#byId.has(id)) return true;
    const store = await this.#storage.open(id);
    const def = store.getMeta<StoredSandbox>('sandbox');
    if (!def || def.id !== id || Date.parse(def.expires_at) <= this.#now()) {
      await store.close().catch(() => undefined);
      await this.#storage.remove(id).catch(() => undefined);
      await this.#o.node?.forget(id);
      return false;
    }
    let world: World;
    try {
      world = await this.#assemble(store, def);
    } catch (err) {
      await store.close().catch(() => undefined);
      throw err;
    }
    this.#add(new Sandbox(world, def));
    if (this.#started) world.start();
    return true;
  }

  /** A node no longer holds sandbox `id`'s lease: its world closes here; its data stays for the next holder. */
  async release(id: string): Promise<void> {
    const found = this.#byId.get(id);
    if (!found) return;
    this.#drop(found);
    await found.world.close();
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    for (const s of this.#byId.values()) s.world.start();
    this.#sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.#sweeper.unref();
  }

  /** Closes every sandbox's world (their data stays: a restart opens them again). */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#sweeper) clearInterval(this.#sweeper);
    await Promise.all([...this.#byId.values()].map((s) => s.world.close()));
    const spare = await this.#spare?.catch(() => undefined);
    if (spare) {
      await spare.store.close().catch(() => undefined);
      await this.#storage.remove(spare.id).catch(() => undefined);
    }
    await this.#storage.close();
  }

  /** Tells every world, and every world made later, where the server answers (callbacks there are refused). */
  addSelfAddress(baseUrl: string): void {
    this.#selfAddresses.push(baseUrl);
    this.#default?.sim.subscriptions.addSelfAddress(baseUrl);
    for (const s of this.#byId.values()) s.world.sim.subscriptions.addSelfAddress(baseUrl);
  }

  /** Gives every sandbox's journal entries, now and later, to `listener` with the sandbox's id (--log-requests). */
  onRequest(listener: (entry: JournalEntry, sandboxId: string) => void): void {
    this.#requestListeners.push(listener);
    for (const s of this.#byId.values()) s.world.deps.journal?.onRecord((e) => listener(e, s.id));
  }

  get size(): number {
    return this.#byId.size;
  }

  route(path: string, authorization: string | undefined): SandboxTarget | undefined {
    const target = this.routeWorld(path, authorization);
    if (!target || 'refused' in target) return target;
    const entry = this.#byId.get(target.world.id)!;
    return target.path === undefined ? { entry } : { entry, path: target.path };
  }

  /**
   * The world a request is for when it is not the default world: the path prefix names it, or
   * the credentials do (a `sbx_` token, a token request's Basic client id, a signed request's key
   * id). Cheap on the default world's requests: a prefix test and, with sandboxes live, a few more.
   */
  routeWorld(path: string, authorization: string | undefined): WorldTarget | undefined {
    if (path.startsWith(PREFIX)) {
      const end = path.indexOf('/', PREFIX.length);
      const stop = end < 0 ? (path.indexOf('?') < 0 ? path.length : path.indexOf('?')) : end;
      const id = path.slice(PREFIX.length, stop).toLowerCase();
      const found = this.get(id);
      if (!found)
        return { refused: 404, message: `sandbox ${id} does not exist (it may have expired or been deleted)` };
      const rest = path.slice(stop);
      return { world: found.world, path: rest === '' || rest.startsWith('?') ? `/${rest}` : rest };
    }
    if (authorization === undefined) return undefined;
    if (authorization.includes('sbx_')) {
      const hex = sbxHexOf(authorization);
      if (hex) {
        const found = this.#byHex.get(hex);
        if (!found || found.expired(this.#now()))
          return { refused: 401, message: 'the sandbox of this access token no longer exists' };
        return { world: found.world };
      }
    }
    if (this.#byId.size === 0) return undefined;
    const scheme = authorization.slice(0, 10).toLowerCase();
    if (scheme.startsWith('basic ') && path.startsWith('/v1/oauth2/token')) {
      const found = this.#byClient.get(basicClientId(authorization) ?? '');
      return found && !found.expired(this.#now()) ? { world: found.world } : undefined;
    }
    if (scheme.startsWith('signature')) {
      const keyId = KEY_ID.exec(authorization)?.[1];
      const found = keyId === undefined ? undefined : this.#byKey.get(keyId);
      return found && !found.expired(this.#now()) ? { world: found.world } : undefined;
    }
    return undefined;
  }

  async create(request: SandboxRequest): Promise<Sandbox> {
    if (this.#closed) throw new ApiError(503, 'the server is stopping; no sandbox can be created');
    const asked = request.id?.toLowerCase();
    if (asked !== undefined && (this.#byId.has(asked) || this.#pending.has(asked)))
      throw new ApiError(409, `sandbox ${asked} already exists`);
    if (this.#byId.size + this.#pending.size >= this.#limits.maxSandboxes) throw this.#limitReached();
    const now = this.#now();
    const settings = request.settings ?? {};
    // Checked before anything is made: each refusal is the request's fault.
    const expires_at = expiryOf(request, now);
    const clock = request.clock ? clockStartOf(request.clock, this.#wall()) : undefined;
    if (settings.match_thresholds) thresholdsOf(settings.match_thresholds, this.#o.shared.matchThresholds);
    const spare = asked === undefined ? await this.#takeSpare() : undefined;
    const id = asked ?? spare?.id ?? randomUUID();
    const def: StoredSandbox = {
      id,
      created_on: new Date(now).toISOString(),
      expires_at,
      seed: request.seed ?? 'fixtures',
      settings,
      ...(clock ? { clock } : {}),
      clients: newClients(this.#o.clientTemplate),
    };
    this.#pending.add(id);
    let store: Store | undefined = spare?.store;
    let claimed = false;
    try {
      if (this.#o.node) {
        const route = {
          id,
          expiresMs: Date.parse(expires_at),
          clientIds: def.clients.map((c) => c.client_id),
          keyIds: def.clients.flatMap((c) => (c.public_keys ?? []).map((k) => k.key_id)),
        };
        // The double's sandboxes on every node count against the limit, as one simulator's would.
        if ((await this.#o.node.claim(route, this.#limits.maxSandboxes)) === 'full') throw this.#limitReached();
        claimed = true;
      }
      store ??= await this.#storage.open(id);
      store.setMeta('sandbox', def);
      const sandbox = new Sandbox(await this.#assemble(store, def), def);
      await store.commit();
      if (this.#closed) {
        await sandbox.world.close();
        throw new ApiError(503, 'the server is stopping; no sandbox can be created');
      }
      this.#add(sandbox);
      if (this.#started) sandbox.world.start();
      this.#makeSpare();
      return sandbox;
    } catch (err) {
      if (store && !this.#byId.has(id)) {
        await store.close().catch(() => undefined);
        await this.#storage.remove(id).catch(() => undefined);
      }
      if (claimed && !this.#byId.has(id)) await this.#o.node?.forget(id).catch(() => undefined);
      throw err;
    } finally {
      this.#pending.delete(id);
    }
  }

  #limitReached(): ApiError {
    return new ApiError(
      403,
      `the server's limit of ${this.#limits.maxSandboxes} live sandboxes is reached (--max-sandboxes); delete one first`,
    );
  }

  get(id: string): Sandbox | undefined {
    const found = this.#byId.get(id);
    if (found?.expired(this.#now())) {
      void this.delete(id);
      return undefined;
    }
    return found;
  }

  list(): Sandbox[] {
    const now = this.#now();
    return [...this.#byId.values()].filter((s) => !s.expired(now));
  }

  /** Deletes a sandbox and everything it holds, its storage included. False when there is none. */
  async delete(id: string): Promise<boolean> {
    const found = this.#byId.get(id);
    if (!found) return false;
    this.#drop(found);
    await found.world.close();
    await this.#storage.remove(id);
    await this.#o.node?.forget(id);
    return true;
  }

  #drop(found: Sandbox): void {
    this.#byId.delete(found.id);
    this.#byHex.delete(hexOf(found.id));
    for (const c of found.def.clients) {
      this.#byClient.delete(c.client_id);
      for (const k of c.public_keys ?? []) this.#byKey.delete(k.key_id);
    }
  }

  /** Deletes every expired sandbox now; the count deleted. */
  async sweep(): Promise<number> {
    const now = this.#now();
    const expired = [...this.#byId.values()].filter((s) => s.expired(now));
    for (const s of expired) await this.delete(s.id).catch((err) => this.#warn(`sandbox ${s.id}: ${err.message}`));
    return expired.length;
  }

  /** Starts making the next spare store, unless one is made or being made (persistent storage only). */
  #makeSpare(): void {
    // A node's spare store would outlive it unseen (no lease names it): nodes make none.
    if (this.#spare || this.#closed || !this.#storage.persistent || this.#o.node) return;
    const id = randomUUID();
    this.#spare = this.#storage.open(id).then(
      (store) => ({ id, store }),
      (err: Error) => {
        this.#warn(`a spare sandbox store was not made: ${err.message}`);
        this.#spare = undefined;
        return undefined;
      },
    );
  }

  /** The spare store, if one is ready; the next is made after the create that takes it. */
  async #takeSpare(): Promise<{ id: string; store: Store } | undefined> {
    const spare = this.#spare;
    this.#spare = undefined;
    return spare ? await spare : undefined;
  }

  #add(sandbox: Sandbox): void {
    this.#byId.set(sandbox.id, sandbox);
    this.#byHex.set(hexOf(sandbox.id), sandbox);
    for (const c of sandbox.def.clients) {
      this.#byClient.set(c.client_id, sandbox);
      for (const k of c.public_keys ?? []) this.#byKey.set(k.key_id, sandbox);
    }
    for (const url of this.#selfAddresses) sandbox.world.sim.subscriptions.addSelfAddress(url);
    for (const l of this.#requestListeners) sandbox.world.deps.journal?.onRecord((e) => l(e, sandbox.id));
  }

  async #assemble(store: Store, def: StoredSandbox): Promise<World> {
    const parent = this.#o.mode;
    const settings = def.settings;
    const mode = resolveMode({
      auth: parent.auth,
      copStrict: settings.cop_strict ?? parent.copStrict,
      strict: settings.strict ?? parent.strictBodies,
    });
    const fixtures = this.#o.fixtures;
    return assembleWorld({
      ...this.#o.shared,
      id: def.id,
      store,
      mode,
      fixtures,
      clients: def.clients,
      ...(def.seed === 'fixtures'
        ? { seedAccounts: () => fixtures.seedAccounts(), seedPayments: () => fixtures.seedPayments() }
        : {}),
      tokenPrefix: `sbx_${hexOf(def.id)}.`,
      participantKeys: this.#o.node
        ? { given: await this.#o.node.participantKeys() }
        : { from: this.#default!.sim.signingKeys },
      ...(def.clock ? { clock: def.clock } : {}),
      ...(settings.jws_profile ? { jwsProfile: settings.jws_profile } : {}),
      ...(settings.match_thresholds
        ? { matchThresholds: thresholdsOf(settings.match_thresholds, this.#o.shared.matchThresholds) }
        : {}),
      sandboxes: this.#o.node?.directory ?? this,
      recordQuota: this.#limits.recordQuota,
    });
  }

  #wall() {
    return this.#o.shared.wall;
  }

  #now(): number {
    const wall = this.#o.shared.wall;
    return wall ? wall.now().getTime() : Date.now();
  }

  #warn(message: string): void {
    (this.#o.warn ?? ((m: string) => console.warn(m)))(message);
  }
}
