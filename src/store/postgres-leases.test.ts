import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postgresForTests } from '../../test/support/postgres-for-tests.ts';
import {
  claimLease,
  claimNewLease,
  DEFAULT_LEASE,
  heartbeat,
  leaseFence,
  listNodes,
  prepareLeaseTables,
  readLease,
  releaseLease,
  renewLease,
  sandboxLeaseCount,
} from './postgres-leases.ts';
import { registerRoute } from './postgres-routes.ts';
import { openPostgresPool, openStore, type Store, StoreError, sandboxSchemaName } from './store.ts';

const postgres = postgresForTests();

/**
 * Makes the lease run out now, by the database's clock: a short lease would have to outlast the
 * store's open and first commit, a duration a loaded machine does not keep.
 */
async function expireLease(client: pg.Client): Promise<void> {
  await client.query(`UPDATE scheme_sim_leases SET expires_at = clock_timestamp() - interval '1 second'`);
  expect((await readLease(client, DEFAULT_LEASE))?.live).toBe(false);
}

describe.skipIf(!postgres.available)('the lease of a shared double: claimed once, renewed, fenced', () => {
  let url: string;
  const clients: pg.Client[] = [];
  const stores: Store[] = [];
  beforeEach(async () => {
    url = await postgres.server.createDatabase();
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close().catch(() => undefined);
    for (const c of clients.splice(0)) await c.end();
  });

  const connect = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await prepareLeaseTables(client);
    clients.push(client);
    return client;
  };

  it('gives a free lease to one of two claimers, and to the other only once it ran out', async () => {
    const [a, b] = [await connect(), await connect()];
    const claims = await Promise.all([
      claimLease(a, DEFAULT_LEASE, 'a', 60_000),
      claimLease(b, DEFAULT_LEASE, 'b', 60_000),
    ]);
    expect(claims.filter((e) => e !== undefined)).toEqual([1]);
    const winner = claims[0] === 1 ? 'a' : 'b';
    expect((await readLease(a, DEFAULT_LEASE))?.owner).toBe(winner);
    expect(await claimLease(a, DEFAULT_LEASE, 'c', 60_000)).toBeUndefined();

    await a.query(`UPDATE scheme_sim_leases SET expires_at = clock_timestamp() - interval '1 second'`);
    expect(await renewLease(a, DEFAULT_LEASE, winner, 1, 60_000)).toBe(false);
    expect(await claimLease(b, DEFAULT_LEASE, 'c', 60_000)).toBe(2);
  });

  it('renews only the holder at its epoch, and a release frees the lease at once', async () => {
    const a = await connect();
    expect(await claimLease(a, DEFAULT_LEASE, 'a', 60_000)).toBe(1);
    expect(await renewLease(a, DEFAULT_LEASE, 'a', 1, 60_000)).toBe(true);
    expect(await renewLease(a, DEFAULT_LEASE, 'a', 0, 60_000)).toBe(false);
    expect(await renewLease(a, DEFAULT_LEASE, 'b', 1, 60_000)).toBe(false);
    await releaseLease(a, DEFAULT_LEASE, 'a', 1);
    expect(await readLease(a, DEFAULT_LEASE)).toMatchObject({ owner: null, live: false, remainingMs: 0 });
    expect(await claimLease(a, DEFAULT_LEASE, 'b', 60_000)).toBe(2);
  });

  it("refuses a stale holder's commit, after its lease ran out and after another took it", async () => {
    const admin = await connect();
    expect(await claimLease(admin, DEFAULT_LEASE, 'a', 60_000)).toBe(1);
    const lost: string[] = [];
    const fence = leaseFence(DEFAULT_LEASE, 'a', 1, (reason) => lost.push(reason));
    const store = await openStore({ postgres: url, postgresFence: fence });
    stores.push(store);
    store.collection<{ id: string }>('things').put({ id: 'early' });
    await store.commit();

    await expireLease(admin);
    store.collection<{ id: string }>('things').put({ id: 'late, lease run out' });
    await expect(store.commit()).rejects.toThrow(StoreError);
    expect(lost).toHaveLength(1);

    expect(await claimLease(admin, DEFAULT_LEASE, 'b', 60_000)).toBe(2);
    await expect(store.commit()).rejects.toThrow(/epoch 1 is no longer in force; the write was refused/);
    const ids = (await admin.query('SELECT id FROM scheme_sim_c_things ORDER BY id')).rows.map((r) => r.id);
    expect(ids).toEqual(['early']);
  });

  it('refuses a write that reaches a closed world of a holder, naming the lease (default world and sandbox)', async () => {
    // A holder closes a world once it finds its lease lost; a request under way may commit after that.
    const admin = await connect();
    expect(await claimLease(admin, DEFAULT_LEASE, 'a', 60_000)).toBe(1);
    const fence = leaseFence(DEFAULT_LEASE, 'a', 1, () => undefined);
    const pool = await openPostgresPool(url);
    try {
      const opened = [
        await openStore({ postgres: url, postgresFence: fence }),
        await openStore({ postgresPool: pool, postgresSchema: sandboxSchemaName(randomUUID()), postgresFence: fence }),
      ];
      for (const store of opened) {
        await store.close();
        store.collection<{ id: string }>('things').put({ id: 'late' });
        await expect(store.commit()).rejects.toThrow(
          /is closed: .*epoch 1 is no longer held here; the write was refused/,
        );
      }
      // Without a fence a closed store says only that it is closed.
      const plain = await openStore({ postgres: url });
      await plain.close();
      plain.collection<{ id: string }>('things').put({ id: 'late' });
      await expect(plain.commit()).rejects.toThrow(/is closed$/);
    } finally {
      await pool.close();
    }
  });

  it('makes a claim skip the lease while a commit of the holder is under way', async () => {
    const [a, b] = [await connect(), await connect()];
    expect(await claimLease(a, DEFAULT_LEASE, 'a', 60_000)).toBe(1);
    const fence = leaseFence(DEFAULT_LEASE, 'a', 1, () => undefined);
    await a.query('BEGIN');
    await fence.check(a);
    // The lease runs out while the commit holds the row: a claimer skips it until the commit ends.
    await b.query(`UPDATE scheme_sim_leases SET expires_at = clock_timestamp() - interval '1 second'`);
    expect(await claimLease(b, DEFAULT_LEASE, 'b', 60_000)).toBeUndefined();
    await a.query('COMMIT');
    expect(await claimLease(b, DEFAULT_LEASE, 'b', 60_000)).toBe(2);
  });

  it('lists the nodes with their heartbeat and what each owns', async () => {
    const a = await connect();
    await heartbeat(a, 'n1', 'http://127.0.0.1:1', 'owner');
    await heartbeat(a, 'n2', 'http://127.0.0.1:2', 'standby');
    await claimLease(a, DEFAULT_LEASE, 'n1', 60_000);
    const nodes = await listNodes(a, 60_000);
    expect(nodes.map((n) => [n.nodeId, n.live, n.owns])).toEqual([
      ['n1', true, ['default']],
      ['n2', true, []],
    ]);
  });

  it("counts every node's sandboxes, but not the default world or an expired sandbox", async () => {
    const a = await connect();
    await claimLease(a, DEFAULT_LEASE, 'n1', 60_000);
    expect(await sandboxLeaseCount(a)).toBe(0);
    // One sandbox on each of three nodes.
    for (const n of [1, 2, 3]) await claimNewLease(a, `s${n}`, `n${n}`, 60_000);
    // s1's route has no expiry yet (a create under way) and counts; s2 lives; s3 has expired.
    await registerRoute(a, { id: 's2', expiresMs: Date.now() + 3_600_000, clientIds: ['c2'], keyIds: [] });
    await registerRoute(a, { id: 's3', expiresMs: Date.now() - 1000, clientIds: ['c3'], keyIds: [] });
    expect(await sandboxLeaseCount(a)).toBe(2);
  });
});
