// One node of a shared double (docs/shared-double.md, decision 033): its row in the database, the
// lease it holds or waits for, and the worlds it serves while it holds it. The lease is PostgreSQL's
// (a row with a fencing epoch, claimed FOR UPDATE SKIP LOCKED); this file only keeps time with it.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import {
  claimLease,
  DOUBLE_LEASE,
  heartbeat,
  LEASES_TABLE,
  type LeaseFence,
  leaseFence,
  prepareLeaseTables,
  readLease,
  releaseLease,
  removeNode,
  renewLease,
} from '../store/postgres-leases.ts';
import { ADVISORY_LOCK_KEY, describeDatabaseUrl } from '../store/postgres-tables.ts';

/** A lease runs out this long after its last renewal, by the database's clock. */
export const LEASE_TTL_MS = 6000;
/** How often a node renews its lease, beats its heartbeat and looks for a lease to take. */
export const RENEW_INTERVAL_MS = 1000;
/**
 * A holder stops serving this long before its lease can run out: its own deadline counts from
 * before the renewal was sent, and this margin covers the two clocks' drift over one lease.
 */
const SAFETY_MARGIN_MS = 1000;
const CONNECT_TIMEOUT_MS = 5000;

export type NodeState = 'standby' | 'taking-over' | 'owner' | 'stopping' | 'stopped';

/** What a node serves while it holds the lease: a runtime, opened on it, and closed again. */
export interface LeasedWorlds {
  close(): Promise<void>;
}

export interface NodeCoordinatorOptions {
  /** The database URL (postgres://…). */
  url: string;
  nodeId: string;
  /** Where the other nodes reach this one. */
  advertiseUrl: string;
  /** Builds what this node serves on a lease just taken; every write it makes proves `fence` first. */
  open(fence: LeaseFence, epoch: number): Promise<LeasedWorlds>;
  log(message: string): void;
}

export interface OwnerView {
  nodeId: string;
  url: string;
  epoch: number;
}

export class NodeCoordinator {
  readonly nodeId: string;
  /** Set before start() (it is known once the server listens, when --port is 0). */
  advertiseUrl: string;
  readonly location: string;
  readonly #o: NodeCoordinatorOptions;
  #client: pg.Client | undefined;
  #state: NodeState = 'standby';
  #epoch = 0;
  /** performance.now() after which this holder no longer serves unless renewed. */
  #deadline = 0;
  #worlds: LeasedWorlds | undefined;
  #owner: OwnerView | undefined;
  #databaseReachable = false;
  #timer: NodeJS.Timeout | undefined;
  #ticking: Promise<void> | undefined;
  #again = false;
  #looking: Promise<void> | undefined;
  #atExpiry: NodeJS.Timeout | undefined;
  /** The last database error logged: a failure is logged once, not every round. */
  #lastError: string | undefined;
  readonly #listeners: Array<() => void> = [];

  constructor(options: NodeCoordinatorOptions) {
    this.#o = options;
    this.nodeId = options.nodeId;
    this.advertiseUrl = options.advertiseUrl;
    this.location = describeDatabaseUrl(options.url);
  }

  get state(): NodeState {
    return this.#state;
  }

  get epoch(): number {
    return this.#epoch;
  }

  get databaseReachable(): boolean {
    return this.#databaseReachable;
  }

  /** What this node serves now: only while it holds the lease and is before its own deadline. */
  serving(): LeasedWorlds | undefined {
    return this.#state === 'owner' && performance.now() < this.#deadline ? this.#worlds : undefined;
  }

  /** The owner as last read from the database (another node, or this one). */
  owner(): OwnerView | undefined {
    return this.#owner;
  }

  /** Called whenever the owner seen changes (waiting forwards look again). */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /**
   * Connects, takes the database's scheme-sim lock in shared mode (so a single simulator, which
   * takes it exclusively, and nodes never run on one database together), creates the tables, and
   * starts the loop that renews or claims the lease.
   */
  async start(): Promise<void> {
    await this.#connect();
    this.#timer = setInterval(() => this.tick(), RENEW_INTERVAL_MS);
    await this.tick();
  }

  /** One round: heartbeat, then renew the lease held or try to claim a free one. */
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
        if (this.#again && this.#state !== 'stopped') {
          this.#again = false;
          void this.tick();
        }
      });
    return this.#ticking;
  }

  async #round(): Promise<void> {
    if (this.#state === 'stopped') return;
    const client = await this.#connect();
    await heartbeat(client, this.nodeId, this.advertiseUrl, this.#state);
    this.#databaseReachable = true;
    this.#lastError = undefined;
    if (this.#state === 'owner' || this.#state === 'taking-over' || this.#state === 'stopping') {
      if (this.#state === 'stopping' && !this.#worlds) return;
      const sent = performance.now();
      if (await renewLease(client, DOUBLE_LEASE, this.nodeId, this.#epoch, LEASE_TTL_MS))
        this.#deadline = sent + LEASE_TTL_MS - SAFETY_MARGIN_MS;
      else this.lose(`its lease (epoch ${this.#epoch}) ran out or was taken`);
      return;
    }
    await this.#look(client);
    if (this.#state !== 'standby') return;
    const lease = this.#owner;
    if (lease && lease.nodeId !== this.nodeId) return;
    const sent = performance.now();
    const epoch = await claimLease(client, DOUBLE_LEASE, this.nodeId, LEASE_TTL_MS);
    if (epoch === undefined) return;
    this.#epoch = epoch;
    this.#deadline = sent + LEASE_TTL_MS - SAFETY_MARGIN_MS;
    this.#state = 'taking-over';
    this.#o.log(`node ${this.nodeId}: took the lease at epoch ${epoch}; loading the worlds`);
    void this.#takeOver(epoch);
  }

  /** Reads who holds the lease in force now; none when it is free or has run out. */
  async #look(client: pg.Client): Promise<void> {
    const lease = await readLease(client, DOUBLE_LEASE);
    const next =
      lease?.live && lease.owner && lease.ownerUrl
        ? { nodeId: lease.owner, url: lease.ownerUrl, epoch: lease.epoch }
        : undefined;
    const changed = next?.nodeId !== this.#owner?.nodeId || next?.epoch !== this.#owner?.epoch;
    this.#owner = next;
    // A standby looks again the moment the owner's lease runs out, not at its next round.
    if (lease?.live && this.#state === 'standby' && lease.remainingMs < RENEW_INTERVAL_MS) {
      clearTimeout(this.#atExpiry);
      this.#atExpiry = setTimeout(() => void this.tick(), lease.remainingMs + 10);
      this.#atExpiry.unref();
    }
    if (changed) for (const l of this.#listeners) l();
  }

  async #takeOver(epoch: number): Promise<void> {
    const fence = leaseFence(DOUBLE_LEASE, this.nodeId, epoch, (reason) => this.lose(reason));
    let worlds: LeasedWorlds;
    try {
      worlds = await this.#o.open(fence, epoch);
    } catch (err) {
      this.#o.log(`node ${this.nodeId}: could not open the worlds: ${(err as Error).message}; giving the lease back`);
      this.#state = 'standby';
      await this.#release(epoch).catch(() => undefined);
      return;
    }
    if (this.#state !== 'taking-over' || this.#epoch !== epoch) {
      await worlds.close().catch(() => undefined);
      // Stopped while loading: the lease goes back at once.
      if (this.#state === 'stopping') await this.#release(epoch).catch(() => undefined);
      return;
    }
    this.#worlds = worlds;
    this.#state = 'owner';
    this.#owner = { nodeId: this.nodeId, url: this.advertiseUrl, epoch };
    for (const l of this.#listeners) l();
    this.#o.log(`node ${this.nodeId}: serving every world at epoch ${epoch}`);
    // The other nodes look at once, and pass what they hold here.
    void this.#connect()
      .then((client) => client.query(`NOTIFY ${LEASES_TABLE}`))
      .catch(() => undefined);
  }

  /**
   * The lease is lost (a renewal or a write refused): stop serving at once, then drop the worlds.
   * Their last writes are refused by the fence, so nothing of this node lands after the loss.
   */
  lose(reason: string): void {
    if (this.#state !== 'owner' && this.#state !== 'taking-over') return;
    this.#o.log(`node ${this.nodeId}: stopped serving: ${reason}`);
    this.#state = 'standby';
    this.#deadline = 0;
    this.#owner = undefined;
    const worlds = this.#worlds;
    this.#worlds = undefined;
    for (const l of this.#listeners) l();
    void worlds?.close().catch(() => undefined);
  }

  /** A graceful stop, first step: this node serves nothing more; requests go to the next owner. */
  beginStop(): void {
    if (this.#state === 'owner' || this.#state === 'taking-over') this.#state = 'stopping';
    else if (this.#state === 'standby') this.#state = 'stopped';
  }

  /**
   * A graceful stop, second step (once the requests in flight are answered): closes the worlds
   * (their last writes land, the lease still held), then gives the lease up and says so, so
   * another node takes it at once rather than after it runs out.
   */
  async handOver(): Promise<void> {
    const worlds = this.#worlds;
    if (worlds) {
      // Renewals go on while the worlds close (their last writes need the lease).
      await worlds.close().catch((err: Error) => this.#o.log(`node ${this.nodeId}: closing: ${err.message}`));
      this.#worlds = undefined;
      await this.#release(this.#epoch).catch((err: Error) =>
        this.#o.log(`node ${this.nodeId}: could not give the lease back (it runs out by itself): ${err.message}`),
      );
      this.#o.log(`node ${this.nodeId}: gave the lease (epoch ${this.#epoch}) back`);
    }
    this.#state = 'stopped';
    this.#owner = undefined;
    // The next owner, once it has taken the lease, is where requests still arriving here go.
    void this.#lookSoon();
  }

  async #lookSoon(): Promise<void> {
    const client = await this.#connect().catch(() => undefined);
    if (client) await this.#look(client).catch(() => undefined);
  }

  /**
   * Looks at the lease again (a waiting request found no owner, or the owner gone). Requests
   * waiting together share one look; a node that serves has nothing to look up.
   */
  refresh(): Promise<void> {
    if (this.#state === 'owner' || this.#state === 'taking-over') return Promise.resolve();
    this.#looking ??= this.#lookSoon().finally(() => {
      this.#looking = undefined;
    });
    return this.#looking;
  }

  /** Leaves the double: the timer stops, the node row goes, the connection ends. */
  async close(): Promise<void> {
    this.#state = 'stopped';
    if (this.#timer) clearInterval(this.#timer);
    clearTimeout(this.#atExpiry);
    await this.#ticking?.catch(() => undefined);
    const client = this.#client;
    if (client) await removeNode(client, this.nodeId).catch(() => undefined);
    this.#dropClient();
  }

  async #release(epoch: number): Promise<void> {
    const client = await this.#connect();
    await releaseLease(client, DOUBLE_LEASE, this.nodeId, epoch);
  }

  async #connect(): Promise<pg.Client> {
    if (this.#client) return this.#client;
    const client = new pg.Client({ connectionString: this.#o.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    client.on('error', () => {
      if (this.#client === client) this.#dropClient();
    });
    // Another node gave the lease up: look at once rather than at the next round.
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
