// One node of a shared double (docs/shared-double.md, decision 033): its row in the database, the
// lease of each world it holds (the default world, sandboxes), and the owner of every other world.
// The leases are PostgreSQL's (a row per world with a fencing epoch, claimed FOR UPDATE SKIP
// LOCKED); this file only keeps time with them.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import {
  claimLease,
  claimNewLease,
  clusterSecret,
  DEFAULT_LEASE,
  forgetWorld,
  heartbeat,
  LEASES_TABLE,
  type LeaseFence,
  leaseFence,
  listNodes,
  type NodeRow,
  prepareLeaseTables,
  readLease,
  readLeases,
  releaseLease,
  removeNode,
  renewLeases,
  sandboxLeaseCount,
} from '../store/postgres-leases.ts';
import { ADVISORY_LOCK_KEY, describeDatabaseUrl } from '../store/postgres-tables.ts';

/** A lease runs out this long after its last renewal, by the database's clock. */
export const LEASE_TTL_MS = 6000;
/** How often a node renews its leases, beats its heartbeat and looks for leases to take. */
export const RENEW_INTERVAL_MS = 1000;
/**
 * A holder stops serving this long before its lease can run out: its own deadline counts from
 * before the renewal was sent, and this margin covers the two clocks' drift over one lease.
 */
const SAFETY_MARGIN_MS = 1000;
const CONNECT_TIMEOUT_MS = 5000;

export type NodeState = 'standby' | 'owner' | 'stopping' | 'stopped';

export interface NodeCoordinatorOptions {
  /** The database URL (postgres://…). */
  url: string;
  nodeId: string;
  /** Where the other nodes reach this one. */
  advertiseUrl: string;
  /** Loads world `world` on a lease just taken (every write proves `fence`); false when the world is gone. */
  open(world: string, fence: LeaseFence, epoch: number): Promise<boolean>;
  /** Closes world `world` here (its lease lost, or handed over); its last writes land only while the lease holds. */
  close(world: string): Promise<void>;
  log(message: string): void;
}

export interface OwnerView {
  nodeId: string;
  url: string;
  epoch: number;
}

interface Held {
  epoch: number;
  /** performance.now() after which this holder no longer serves the world unless renewed. */
  deadline: number;
  /** Loaded and serving (a world just taken is loading). */
  ready: boolean;
}

export class NodeCoordinator {
  readonly nodeId: string;
  /** Set before start() (it is known once the server listens, when --port is 0). */
  advertiseUrl: string;
  readonly location: string;
  readonly #o: NodeCoordinatorOptions;
  #client: pg.Client | undefined;
  #stopping = false;
  #stopped = false;
  readonly #held = new Map<string, Held>();
  /** Every world's owner as last read (undefined: none in force); worlds absent are unknown here. */
  readonly #owners = new Map<string, OwnerView | undefined>();
  /** The worlds found free last round: one still free now was left by the spreading, and is anyone's. */
  #freeLastRound = new Set<string>();
  #databaseReachable = false;
  #secret = '';
  #timer: NodeJS.Timeout | undefined;
  #ticking: Promise<void> | undefined;
  #again = false;
  /** The last database error logged: a failure is logged once, not every round. */
  #lastError: string | undefined;
  readonly #listeners: Array<() => void> = [];
  readonly #rounds: Array<(client: pg.Client) => Promise<void>> = [];

  constructor(options: NodeCoordinatorOptions) {
    this.#o = options;
    this.nodeId = options.nodeId;
    this.advertiseUrl = options.advertiseUrl;
    this.location = describeDatabaseUrl(options.url);
  }

  get state(): NodeState {
    if (this.#stopped) return 'stopped';
    if (this.#stopping) return 'stopping';
    return [...this.#held.values()].some((h) => h.ready) ? 'owner' : 'standby';
  }

  get databaseReachable(): boolean {
    return this.#databaseReachable;
  }

  /** What the nodes of this database show each other on the calls between them. */
  get secret(): string {
    return this.#secret;
  }

  /** Whether this node serves `world` now: it holds its lease, has loaded it, and is before its own deadline. */
  serves(world: string): boolean {
    const held = this.#held.get(world);
    return !this.#stopping && held !== undefined && held.ready && performance.now() < held.deadline;
  }

  /** The epoch at which this node holds `world` (0 when it does not). */
  epochOf(world: string): number {
    return this.#held.get(world)?.epoch ?? 0;
  }

  /** The worlds this node serves. */
  owns(): string[] {
    return [...this.#held].filter(([, h]) => h.ready).map(([w]) => w);
  }

  /** The owner of `world` as last read (another node, or this one); undefined when none is in force or it is unknown. */
  ownerOf(world: string): OwnerView | undefined {
    return this.#owners.get(world);
  }

  /** Whether `world` has a lease at all, as last read (a sandbox that exists somewhere). */
  knows(world: string): boolean {
    return this.#owners.has(world) || this.#held.has(world);
  }

  /** Called whenever an owner seen changes (waiting forwards look again). */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Runs `work` on this node's session each round, after the leases (the sandbox routes are read so). */
  eachRound(work: (client: pg.Client) => Promise<void>): void {
    this.#rounds.push(work);
  }

  /** Runs one statement's worth of work on this node's session (statements stand alone: no BEGIN here). */
  async query<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    return work(await this.#connect());
  }

  /**
   * Connects, takes the database's scheme-sim lock in shared mode (so a single simulator, which
   * takes it exclusively, and nodes never run on one database together), creates the tables, and
   * starts the loop that renews and claims leases.
   */
  async start(): Promise<void> {
    await this.#connect();
    this.#timer = setInterval(() => this.tick(), RENEW_INTERVAL_MS);
    await this.tick();
  }

  /** One round: heartbeat, renew the leases held, read every owner, take leases nobody holds. */
  tick(): Promise<void> {
    if (this.#ticking) {
      this.#again = true;
      return this.#ticking;
    }
    this.#ticking = this.#round()
      .catch((err: Error) => {
        if (err.message !== this.#lastError)
          this.#o.log(`node ${this.nodeId}: database ${this.location}: ${err.message}`);
        this.#lastError = err.message;
        this.#databaseReachable = false;
        this.#dropClient();
      })
      .finally(() => {
        this.#ticking = undefined;
        if (this.#again && !this.#stopped) {
          this.#again = false;
          void this.tick();
        }
      });
    return this.#ticking;
  }

  async #round(): Promise<void> {
    if (this.#stopped) return;
    const client = await this.#connect();
    await heartbeat(client, this.nodeId, this.advertiseUrl, this.state);
    this.#databaseReachable = true;
    this.#lastError = undefined;
    const sent = performance.now();
    const asked = [...this.#held.keys()];
    const renewed = await renewLeases(client, this.nodeId, asked, LEASE_TTL_MS);
    // Only the worlds asked about: one a sandbox create claimed while the renewal was out is
    // neither renewed nor lost (counting it lost refused the create's own first commit).
    for (const world of asked) {
      const held = this.#held.get(world);
      if (!held) continue;
      if (renewed.get(world) === held.epoch) held.deadline = sent + LEASE_TTL_MS - SAFETY_MARGIN_MS;
      else this.lose(world, `its lease of ${world} (epoch ${held.epoch}) ran out or was taken`);
    }
    await this.#readOwners(client);
    for (const work of this.#rounds) await work(client);
    if (!this.#stopping) await this.#claimFree(client);
  }

  async #readOwners(client: pg.Client): Promise<void> {
    const leases = await readLeases(client);
    let changed = false;
    const seen = new Set<string>();
    for (const lease of leases) {
      seen.add(lease.world);
      const next =
        lease.live && lease.owner && lease.ownerUrl
          ? { nodeId: lease.owner, url: lease.ownerUrl, epoch: lease.epoch }
          : undefined;
      const before = this.#owners.get(lease.world);
      if (!this.#owners.has(lease.world) || next?.nodeId !== before?.nodeId || next?.epoch !== before?.epoch)
        changed = true;
      this.#owners.set(lease.world, next);
    }
    for (const world of this.#owners.keys()) if (!seen.has(world)) this.#owners.delete(world);
    if (changed) for (const l of this.#listeners) l();
  }

  /**
   * Takes leases nobody holds in force (an owner died or stopped), the default world's first. Of
   * N live nodes each takes about 1/N of them a round, so a dead owner's sandboxes spread out. The
   * dead node still counts as live until its heartbeat runs out, so a share can be left over: a
   * world already free last round is taken by whoever comes first (SKIP LOCKED), not left a round
   * more, which kept the chaos test's slowest takeover at 7.5–9.3 s of its 10 s.
   */
  async #claimFree(client: pg.Client): Promise<void> {
    const free = [...this.#owners].filter(([w, o]) => o === undefined && !this.#held.has(w)).map(([w]) => w);
    const overdue = new Set(free.filter((w) => this.#freeLastRound.has(w)));
    this.#freeLastRound = new Set(free);
    if (free.length === 0) return;
    free.sort((a, b) => Number(overdue.has(b)) - Number(overdue.has(a)));
    free.sort((a, b) => Number(b === DEFAULT_LEASE) - Number(a === DEFAULT_LEASE));
    const live = Math.max(1, (await this.liveNodes(client)).length);
    let budget = Math.ceil((free.length - overdue.size) / live);
    for (const world of free) {
      if (this.#stopping) return;
      if (budget <= 0 && !overdue.has(world)) return;
      const sent = performance.now();
      const epoch = await claimLease(client, world, this.nodeId, LEASE_TTL_MS);
      if (epoch === undefined) continue;
      if (!overdue.has(world)) budget--;
      this.#held.set(world, { epoch, deadline: sent + LEASE_TTL_MS - SAFETY_MARGIN_MS, ready: false });
      this.#owners.set(world, { nodeId: this.nodeId, url: this.advertiseUrl, epoch });
      this.#o.log(`node ${this.nodeId}: took the lease of ${world} at epoch ${epoch}; loading it`);
      void this.#takeOver(world, epoch);
    }
  }

  /** The live nodes, each with the leases it holds in force. */
  async liveNodes(client?: pg.Client): Promise<NodeRow[]> {
    return (await listNodes(client ?? (await this.#connect()), LEASE_TTL_MS)).filter((n) => n.live);
  }

  async #takeOver(world: string, epoch: number): Promise<void> {
    let served: boolean;
    try {
      served = await this.#o.open(world, this.fenceOf(world), epoch);
    } catch (err) {
      this.#o.log(`node ${this.nodeId}: could not open ${world}: ${(err as Error).message}; giving its lease back`);
      if (this.#held.get(world)?.epoch === epoch) this.#held.delete(world);
      await this.#release(world, epoch).catch(() => undefined);
      return;
    }
    const held = this.#held.get(world);
    if (!served) {
      if (held?.epoch === epoch) this.#held.delete(world);
      this.#owners.delete(world);
      return;
    }
    if (held?.epoch !== epoch || this.#stopping) {
      // Lost or stopped while loading: it closes again (and a stop hands it on).
      if (held?.epoch === epoch) {
        await this.#o.close(world).catch(() => undefined);
        this.#held.delete(world);
        await this.#release(world, epoch).catch(() => undefined);
      }
      return;
    }
    held.ready = true;
    for (const l of this.#listeners) l();
    this.#o.log(`node ${this.nodeId}: serving ${world} at epoch ${epoch}`);
    // The other nodes look at once, and pass what they hold here.
    void this.#connect()
      .then((client) => client.query(`NOTIFY ${LEASES_TABLE}`))
      .catch(() => undefined);
  }

  /**
   * The lease of a sandbox created on this node, taken before its store is made: `exists` when the
   * id is taken, `full` when the double (every node) would hold more than `limit` sandboxes with it
   * (--max-sandboxes counts across the nodes, decision 037).
   */
  async claimNew(world: string, limit: number): Promise<'claimed' | 'exists' | 'full'> {
    const client = await this.#connect();
    const sent = performance.now();
    const epoch = await claimNewLease(client, world, this.nodeId, LEASE_TTL_MS);
    if (epoch === undefined) return 'exists';
    if ((await sandboxLeaseCount(client)) > limit) {
      await forgetWorld(client, world, this.nodeId, epoch);
      return 'full';
    }
    this.#held.set(world, { epoch, deadline: sent + LEASE_TTL_MS - SAFETY_MARGIN_MS, ready: true });
    this.#owners.set(world, { nodeId: this.nodeId, url: this.advertiseUrl, epoch });
    return 'claimed';
  }

  /** A world deleted on this node: its lease and routes go from the database. */
  async forget(world: string): Promise<void> {
    const held = this.#held.get(world);
    this.#held.delete(world);
    this.#owners.delete(world);
    if (held) await forgetWorld(await this.#connect(), world, this.nodeId, held.epoch);
  }

  /** What a write of `world` proves: its lease at the epoch held now. */
  fenceOf(world: string): LeaseFence {
    return leaseFence(world, this.nodeId, this.epochOf(world), (reason) => this.lose(world, reason));
  }

  /**
   * The lease of `world` is lost (a renewal or a write refused): stop serving it at once, then close
   * it. Its last writes are refused by the fence, so nothing of this node lands after the loss.
   */
  lose(world: string, reason: string): void {
    if (!this.#held.has(world)) return;
    this.#o.log(`node ${this.nodeId}: stopped serving ${world}: ${reason}`);
    this.#held.delete(world);
    this.#owners.set(world, undefined);
    for (const l of this.#listeners) l();
    void this.#o.close(world).catch(() => undefined);
  }

  /** Looks up one world's owner now (a request for a world unknown here, or whose owner is gone). */
  async lookup(world: string): Promise<void> {
    const lease = await readLease(await this.#connect(), world).catch(() => undefined);
    if (!lease) {
      this.#owners.delete(world);
      return;
    }
    const next =
      lease.live && lease.owner && lease.ownerUrl
        ? { nodeId: lease.owner, url: lease.ownerUrl, epoch: lease.epoch }
        : undefined;
    if (!this.#held.has(world)) this.#owners.set(world, next);
  }

  /** A graceful stop, first step: this node serves nothing more; requests go to the next owners. */
  beginStop(): void {
    this.#stopping = true;
  }

  /**
   * A graceful stop, second step (once the requests in flight are answered): closes each world
   * (its last writes land, the lease still held), then gives each lease up and says so, so other
   * nodes take them at once rather than after they run out.
   */
  async handOver(): Promise<void> {
    for (const [world, held] of [...this.#held]) {
      // Renewals go on while the worlds close (their last writes need the leases).
      await this.#o
        .close(world)
        .catch((err: Error) => this.#o.log(`node ${this.nodeId}: closing ${world}: ${err.message}`));
      this.#held.delete(world);
      this.#owners.set(world, undefined);
      await this.#release(world, held.epoch).catch((err: Error) =>
        this.#o.log(`node ${this.nodeId}: could not give ${world} back (its lease runs out by itself): ${err.message}`),
      );
      this.#o.log(`node ${this.nodeId}: gave the lease of ${world} (epoch ${held.epoch}) back`);
    }
    this.#stopped = true;
    // Where requests still arriving here go: the next owners, once they have taken the leases.
    const client = await this.#connect().catch(() => undefined);
    if (client) {
      await heartbeat(client, this.nodeId, this.advertiseUrl, 'stopped').catch(() => undefined);
      await this.#readOwners(client).catch(() => undefined);
    }
  }

  /** Leaves the double: the timer stops, the node row goes, the connection ends. */
  async close(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#ticking?.catch(() => undefined);
    const client = this.#client;
    if (client) await removeNode(client, this.nodeId).catch(() => undefined);
    this.#dropClient();
  }

  async #release(world: string, epoch: number): Promise<void> {
    const client = await this.#connect();
    await releaseLease(client, world, this.nodeId, epoch);
  }

  async #connect(): Promise<pg.Client> {
    if (this.#client) return this.#client;
    const client = new pg.Client({ connectionString: this.#o.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    client.on('error', () => {
      if (this.#client === client) this.#dropClient();
    });
    // Another node gave a lease up or took one: look at once rather than at the next round.
    client.on('notification', () => void this.tick());
    try {
      await client.connect();
      const { rows } = await client.query('SELECT pg_try_advisory_lock_shared($1::bigint) AS locked', [
        ADVISORY_LOCK_KEY,
      ]);
      if (rows[0].locked !== true)
        throw new Error(
          `database ${this.location} is in use by a scheme-sim started without --node (it holds the database alone)`,
        );
      await prepareLeaseTables(client);
      await client.query(`LISTEN ${LEASES_TABLE}`);
      this.#secret = await clusterSecret(client);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    this.#client = client;
    this.#databaseReachable = true;
    return client;
  }

  #dropClient(): void {
    const client = this.#client;
    this.#client = undefined;
    void client?.end().catch(() => undefined);
  }
}
