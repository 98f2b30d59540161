// Where each sandbox of a shared double is found by what a request carries (docs/shared-double.md):
// every node routes a request for any sandbox, loaded on it or not, by its client ids and key ids
// kept here beside the sandbox's lease. Written by the node that creates the sandbox.
import type pg from 'pg';
import { ROUTES_TABLE } from './postgres-leases.ts';

type Queryable = Pick<pg.ClientBase, 'query'>;

export interface SandboxRoute {
  id: string;
  /** When the sandbox expires (epoch ms). */
  expiresMs: number;
  clientIds: string[];
  keyIds: string[];
}

/** Records a sandbox's routing keys (before its creation is answered). */
export async function registerRoute(client: Queryable, route: SandboxRoute): Promise<void> {
  await client.query(
    `INSERT INTO ${ROUTES_TABLE} (id, expires_at, client_ids, key_ids) VALUES ($1, to_timestamp($2::double precision / 1000), $3, $4)
     ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at, client_ids = excluded.client_ids, key_ids = excluded.key_ids`,
    [route.id, route.expiresMs, route.clientIds, route.keyIds],
  );
}

/** Every sandbox's routing keys. */
export async function readRoutes(client: Queryable): Promise<SandboxRoute[]> {
  const { rows } = await client.query(
    `SELECT id, extract(epoch FROM expires_at) * 1000 AS expires, client_ids, key_ids FROM ${ROUTES_TABLE}`,
  );
  return rows.map((r) => ({
    id: r.id as string,
    expiresMs: Number(r.expires),
    clientIds: r.client_ids as string[],
    keyIds: r.key_ids as string[],
  }));
}

/** The sandbox a client id or a key id belongs to, asked of the database (a key not yet in a node's copy). */
export async function findRoute(client: Queryable, by: 'client' | 'key', value: string): Promise<string | undefined> {
  const column = by === 'client' ? 'client_ids' : 'key_ids';
  const { rows } = await client.query(`SELECT id FROM ${ROUTES_TABLE} WHERE $1 = ANY(${column}) LIMIT 1`, [value]);
  return rows[0]?.id as string | undefined;
}
