// The tables and SQL by which N scheme-sim nodes on one PostgreSQL database agree who writes
// (docs/shared-double.md, decision 033): a row per node, and a lease row with a fencing epoch per
// world (the default one and each sandbox). Only PostgreSQL's own tools: row locks, SKIP LOCKED,
// the server's clock. Every statement stands alone (no BEGIN), so nodes may share one session.
import type pg from 'pg';
import { LeaseLostError } from './store-error.ts';

type Queryable = Pick<pg.ClientBase, 'query'>;

export const NODES_TABLE = 'scheme_sim_nodes';
export const LEASES_TABLE = 'scheme_sim_leases';
/** The default world's lease; each sandbox's lease is named by its id. */
export const DEFAULT_LEASE = 'default';
/** Where a sandbox is found by what a request carries (its client ids, key ids), for every node. */
export const ROUTES_TABLE = 'scheme_sim_sandbox_routes';
/** One row: the secret nodes show each other on the calls between them (placement, the sandbox list). */
const CLUSTER_TABLE = 'scheme_sim_cluster';

/** Serialises the CREATE TABLE IF NOT EXISTS of nodes starting together (they race on pg_type otherwise). */
const PREPARE_LOCK = '7261726531';

/** Creates the two tables when they are missing; run on a session, not in a transaction. */
export async function prepareLeaseTables(client: Queryable): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [PREPARE_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${NODES_TABLE} (node_id text PRIMARY KEY, advertise_url text NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(), heartbeat_at timestamptz NOT NULL DEFAULT now(),
        state text NOT NULL)`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${LEASES_TABLE} (world text PRIMARY KEY, owner text, epoch bigint NOT NULL DEFAULT 0,
        expires_at timestamptz NOT NULL DEFAULT '-infinity')`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${ROUTES_TABLE} (id text PRIMARY KEY, expires_at timestamptz NOT NULL,
        client_ids text[] NOT NULL, key_ids text[] NOT NULL)`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${CLUSTER_TABLE} (one boolean PRIMARY KEY DEFAULT true, secret text NOT NULL)`,
    );
    await client.query(
      `INSERT INTO ${CLUSTER_TABLE} (secret) VALUES (md5(random()::text || clock_timestamp()::text) || md5(random()::text))
       ON CONFLICT DO NOTHING`,
    );
    await client.query(`INSERT INTO ${LEASES_TABLE} (world) VALUES ($1) ON CONFLICT DO NOTHING`, [DEFAULT_LEASE]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** A node's row: its address and heartbeat, stamped with the database's clock. */
export async function heartbeat(client: Queryable, nodeId: string, advertiseUrl: string, state: string): Promise<void> {
  await client.query(
    `INSERT INTO ${NODES_TABLE} (node_id, advertise_url, state) VALUES ($1, $2, $3)
     ON CONFLICT (node_id) DO UPDATE SET advertise_url = $2, state = $3, heartbeat_at = now()`,
    [nodeId, advertiseUrl, state],
  );
}

export async function removeNode(client: Queryable, nodeId: string): Promise<void> {
  await client.query(`DELETE FROM ${NODES_TABLE} WHERE node_id = $1`, [nodeId]);
}

export interface LeaseRow {
  world: string;
  owner: string | null;
  epoch: number;
  /** Whether the lease is still in force by the database's clock. */
  live: boolean;
  /** The owner's advertise URL, when the owner has a node row. */
  ownerUrl: string | null;
  /** How long the lease has left by the database's clock (0 when it ran out). */
  remainingMs: number;
}

const LEASE_COLUMNS = `l.world, l.owner, l.epoch::text AS epoch, l.expires_at > clock_timestamp() AS live, n.advertise_url,
            CASE WHEN l.expires_at > clock_timestamp()
                 THEN extract(epoch FROM l.expires_at - clock_timestamp()) * 1000 ELSE 0 END AS remaining
       FROM ${LEASES_TABLE} l LEFT JOIN ${NODES_TABLE} n ON n.node_id = l.owner`;

function leaseRow(row: Record<string, unknown>): LeaseRow {
  return {
    world: row.world as string,
    owner: row.owner as string | null,
    epoch: Number(row.epoch),
    live: row.live as boolean,
    ownerUrl: row.advertise_url as string | null,
    remainingMs: Number(row.remaining ?? 0),
  };
}

/** The lease and its owner's address as the database sees them now; undefined when the world has none. */
export async function readLease(client: Queryable, world: string): Promise<LeaseRow | undefined> {
  const { rows } = await client.query(`SELECT ${LEASE_COLUMNS} WHERE l.world = $1`, [world]);
  return rows[0] ? leaseRow(rows[0]) : undefined;
}

/** Every world's lease: who serves what, for a node's routing and for the leases to take. */
export async function readLeases(client: Queryable): Promise<LeaseRow[]> {
  const { rows } = await client.query(`SELECT ${LEASE_COLUMNS}`);
  return rows.map(leaseRow);
}

/**
 * Takes the lease when nobody holds it in force: the row is locked FOR UPDATE SKIP LOCKED, so of
 * nodes claiming at once one gets it and the others skip it, and a commit under way (which holds it
 * FOR KEY SHARE, leaseFence) makes it skipped until that commit ends. The epoch goes up by one.
 * Resolves the new epoch, or undefined when the lease is held or locked. One statement.
 */
export async function claimLease(
  client: Queryable,
  world: string,
  nodeId: string,
  ttlMs: number,
): Promise<number | undefined> {
  const { rows } = await client.query(
    `UPDATE ${LEASES_TABLE} SET owner = $2, epoch = epoch + 1,
       expires_at = clock_timestamp() + make_interval(secs => $3::double precision / 1000)
     WHERE world = (SELECT world FROM ${LEASES_TABLE}
                     WHERE world = $1 AND (owner IS NULL OR expires_at <= clock_timestamp()) FOR UPDATE SKIP LOCKED)
     RETURNING epoch::text AS epoch`,
    [world, nodeId, ttlMs],
  );
  return rows[0] ? Number(rows[0].epoch) : undefined;
}

/** The lease of a world made just now (a sandbox created on this node): epoch 1, or undefined when the world exists. */
export async function claimNewLease(
  client: Queryable,
  world: string,
  nodeId: string,
  ttlMs: number,
): Promise<number | undefined> {
  const { rows } = await client.query(
    `INSERT INTO ${LEASES_TABLE} (world, owner, epoch, expires_at)
     VALUES ($1, $2, 1, clock_timestamp() + make_interval(secs => $3::double precision / 1000))
     ON CONFLICT (world) DO NOTHING RETURNING epoch::text AS epoch`,
    [world, nodeId, ttlMs],
  );
  return rows[0] ? Number(rows[0].epoch) : undefined;
}

/**
 * How many sandboxes the double holds: every world's lease but the default world's, less those
 * whose route says they have expired (their owner deletes them at its next sweep). A create counts
 * after inserting its own lease (claimNewLease), so of creates racing for the last place under a
 * limit none is let past it: whichever counts last sees the others' leases.
 */
export async function sandboxLeaseCount(client: Queryable): Promise<number> {
  const { rows } = await client.query(
    `SELECT count(*)::int AS n FROM ${LEASES_TABLE} l LEFT JOIN ${ROUTES_TABLE} r ON r.id = l.world
      WHERE l.world <> $1 AND (r.expires_at IS NULL OR r.expires_at > clock_timestamp())`,
    [DEFAULT_LEASE],
  );
  return rows[0].n as number;
}

/** A world deleted: its lease and its routes go (only by its holder at its epoch). */
export async function forgetWorld(client: Queryable, world: string, nodeId: string, epoch: number): Promise<void> {
  await client.query(
    `WITH gone AS (DELETE FROM ${LEASES_TABLE} WHERE world = $1 AND owner = $2 AND epoch = $3 RETURNING world)
     DELETE FROM ${ROUTES_TABLE} WHERE id IN (SELECT world FROM gone)`,
    [world, nodeId, epoch],
  );
}

/**
 * Extends the lease by `ttlMs` from the database's now, if this node still holds it at this
 * epoch and it has not run out. False when it was lost.
 */
export async function renewLease(
  client: Queryable,
  world: string,
  nodeId: string,
  epoch: number,
  ttlMs: number,
): Promise<boolean> {
  const result = await client.query(
    `UPDATE ${LEASES_TABLE} SET expires_at = clock_timestamp() + make_interval(secs => $4::double precision / 1000)
     WHERE world = $1 AND owner = $2 AND epoch = $3 AND expires_at > clock_timestamp()`,
    [world, nodeId, epoch, ttlMs],
  );
  return result.rowCount === 1;
}

/**
 * Renews every lease this node holds in one statement; resolves the worlds renewed with their
 * epochs (a world held here at another epoch, or run out, is not among them: it was lost).
 */
export async function renewLeases(
  client: Queryable,
  nodeId: string,
  worlds: string[],
  ttlMs: number,
): Promise<Map<string, number>> {
  if (worlds.length === 0) return new Map();
  const { rows } = await client.query(
    `UPDATE ${LEASES_TABLE} SET expires_at = clock_timestamp() + make_interval(secs => $3::double precision / 1000)
     WHERE world = ANY($2::text[]) AND owner = $1 AND expires_at > clock_timestamp()
     RETURNING world, epoch::text AS epoch`,
    [nodeId, worlds, ttlMs],
  );
  return new Map(rows.map((r) => [r.world as string, Number(r.epoch)]));
}

/** The secret the nodes of this database show each other (made once, with the tables). */
export async function clusterSecret(client: Queryable): Promise<string> {
  const { rows } = await client.query(`SELECT secret FROM ${CLUSTER_TABLE}`);
  return rows[0].secret as string;
}

/** Gives the lease up at once (a graceful stop), so another node claims it without waiting for it to run out. */
export async function releaseLease(client: Queryable, world: string, nodeId: string, epoch: number): Promise<void> {
  await client.query(
    `UPDATE ${LEASES_TABLE} SET owner = NULL, expires_at = '-infinity' WHERE world = $1 AND owner = $2 AND epoch = $3`,
    [world, nodeId, epoch],
  );
  await client.query(`NOTIFY ${LEASES_TABLE}`);
}

/** What every write of a lease holder proves first, inside the write's own transaction. */
export interface LeaseFence {
  /** Throws a StoreError (and the holder drops the lease) unless the lease is still this holder's. */
  check(client: Queryable): Promise<void>;
  /**
   * Why a write that reaches the world's store after the holder closed it is refused: a holder
   * closes a world when its lease is lost or given up, and may find out before a request under
   * way commits (a process paused past its lease, then resumed).
   */
  readonly closedReason: string;
}

/**
 * The fence of a holder at `epoch`: the write's transaction locks the lease row FOR KEY SHARE
 * while the lease is in force and this holder's. A claim (FOR UPDATE SKIP LOCKED) cannot take the
 * row until the write has committed or rolled back, and a write after the lease ran out, or after
 * another node took it, matches no row and is rolled back: two nodes never both write.
 */
export function leaseFence(world: string, nodeId: string, epoch: number, onLost: (reason: string) => void): LeaseFence {
  return {
    closedReason: `the lease of node ${nodeId} at epoch ${epoch} is no longer held here; the write was refused`,
    async check(client) {
      const { rowCount } = await client.query(
        `SELECT 1 FROM ${LEASES_TABLE} WHERE world = $1 AND owner = $2 AND epoch = $3 AND expires_at > clock_timestamp()
         FOR KEY SHARE`,
        [world, nodeId, epoch],
      );
      if (rowCount === 1) return;
      const reason = `the lease of node ${nodeId} at epoch ${epoch} is no longer in force; the write was refused`;
      onLost(reason);
      throw new LeaseLostError(reason);
    },
  };
}

export interface NodeRow {
  nodeId: string;
  advertiseUrl: string;
  state: string;
  /** Whether its heartbeat is younger than the lease time and it has not stopped. */
  live: boolean;
  heartbeatAgeMs: number;
  /** The leases it holds in force. */
  owns: string[];
}

/** Every node row, live ones first, with the leases each holds in force. */
export async function listNodes(client: Queryable, ttlMs: number): Promise<NodeRow[]> {
  const { rows } = await client.query(
    `SELECT n.node_id, n.advertise_url, n.state,
            extract(epoch FROM clock_timestamp() - n.heartbeat_at) * 1000 AS age,
            coalesce(array_agg(l.world ORDER BY l.world) FILTER (WHERE l.world IS NOT NULL), '{}') AS owns
       FROM ${NODES_TABLE} n
       LEFT JOIN ${LEASES_TABLE} l ON l.owner = n.node_id AND l.expires_at > clock_timestamp()
      GROUP BY n.node_id ORDER BY n.node_id`,
  );
  return rows
    .map((r) => ({
      nodeId: r.node_id as string,
      advertiseUrl: r.advertise_url as string,
      state: r.state as string,
      heartbeatAgeMs: Math.round(Number(r.age)),
      live: Number(r.age) < ttlMs && r.state !== 'stopping' && r.state !== 'stopped',
      owns: r.owns as string[],
    }))
    .sort((a, b) => Number(b.live) - Number(a.live));
}
