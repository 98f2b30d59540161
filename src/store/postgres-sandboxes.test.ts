import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postgresForTests } from '../../test/support/postgres-for-tests.ts';
import { freePort } from '../harness/postgres-server.ts';
import { openPostgresPool, openStore, type PostgresPool, type Store, StoreError, sandboxSchemaName } from './store.ts';

const postgres = postgresForTests();

type Row = { id: string; owner?: string; n?: number };

describe.skipIf(!postgres.available)('sandbox stores on PostgreSQL: a schema each, one shared pool', () => {
  let url: string;
  let pool: PostgresPool;
  const pools: PostgresPool[] = [];
  const stores = new Set<Store>();
  const warnings: string[] = [];
  beforeEach(async () => {
    url = await postgres.server.createDatabase();
    pool = await poolOn(4);
  });
  afterEach(async () => {
    for (const store of stores) await close(store);
    for (const p of pools.splice(0)) await p.close();
    warnings.length = 0;
  });

  async function poolOn(max: number): Promise<PostgresPool> {
    const opened = await openPostgresPool(url, { max, warn: (m) => warnings.push(m) });
    pools.push(opened);
    return opened;
  }

  async function sandbox(schema: string, on = pool): Promise<Store> {
    const store = await openStore({ postgresPool: on, postgresSchema: schema });
    stores.add(store);
    return store;
  }

  async function defaultStore(): Promise<Store> {
    const store = await openStore({ postgres: url });
    stores.add(store);
    return store;
  }

  async function close(store: Store): Promise<void> {
    stores.delete(store);
    await store.close();
  }

  async function sql(text: string, params: unknown[] = []) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text, params)).rows;
    } finally {
      await client.end();
    }
  }

  const newSchema = () => sandboxSchemaName(randomUUID());
  const ids = (store: Store, collection = 'accounts') =>
    store
      .collection<Row>(collection)
      .values()
      .map((row) => row.id);

  it('keeps the default store and two sandboxes apart, each reloading only its own rows', async () => {
    const [a, b] = [newSchema(), newSchema()];
    const opened = { default: await defaultStore(), a: await sandbox(a), b: await sandbox(b) };
    for (const [owner, store] of Object.entries(opened)) {
      store.collection<Row>('accounts').put({ id: 'shared', owner });
      store.collection<Row>('accounts').put({ id: `only-${owner}`, owner });
      store.setMeta('owner', owner);
      await store.commit();
    }
    // The default store's reset empties its own tables, not the sandboxes'.
    opened.default.clear();
    opened.default.collection<Row>('accounts').put({ id: 'after-reset' });
    await opened.default.commit();

    for (const store of Object.values(opened)) await close(store);
    const again = { default: await defaultStore(), a: await sandbox(a), b: await sandbox(b) };
    expect(ids(again.default)).toEqual(['after-reset']);
    expect(again.default.getMeta('owner')).toBeUndefined();
    for (const owner of ['a', 'b'] as const) {
      expect(again[owner].collection<Row>('accounts').values()).toEqual([
        { id: 'shared', owner },
        { id: `only-${owner}`, owner },
      ]);
      expect(again[owner].getMeta('owner')).toBe(owner);
      expect(again[owner].location).toBe(`${url} (schema ${owner === 'a' ? a : b})`);
    }
    expect(await sql('SELECT id FROM public.scheme_sim_c_accounts')).toEqual([{ id: 'after-reset' }]);
    expect(await sql(`SELECT id FROM ${a}.scheme_sim_c_accounts ORDER BY pos`)).toEqual([
      { id: 'shared' },
      { id: 'only-a' },
    ]);
  });

  it('lists the sandbox schemas, and drops one with all its tables, refusing while it is open', async () => {
    const [a, b] = [newSchema(), newSchema()].sort();
    const storeA = await sandbox(a!);
    const storeB = await sandbox(b!);
    for (const store of [storeA, storeB]) {
      store.collection<Row>('accounts').put({ id: 'x' });
      store.collection<Row>('payments').put({ id: 'y' });
      await store.commit();
    }
    // Schemas that only look alike are not listed, and never dropped.
    await sql(`CREATE SCHEMA scheme_sim_sbx_short; CREATE SCHEMA "scheme_sim_sbx_${'A'.repeat(32)}"`);
    expect(await pool.listSandboxSchemas()).toEqual([a, b]);

    await expect(pool.dropSandboxSchema(a!)).rejects.toThrow(`schema ${a} of database ${url} is already open`);
    await close(storeA);
    expect(await pool.dropSandboxSchema(a!)).toBe(true);
    expect(await pool.listSandboxSchemas()).toEqual([b]);
    expect(await sql('SELECT nspname FROM pg_namespace WHERE nspname = $1', [a])).toEqual([]);
    expect(
      await sql('SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE nspname = $1', [a]),
    ).toEqual([]);
    expect(await pool.dropSandboxSchema(a!)).toBe(false);

    // The other sandbox is untouched, and the dropped one opens again empty.
    await close(storeB);
    expect(ids(await sandbox(b!))).toEqual(['x']);
    const reborn = await sandbox(a!);
    expect(ids(reborn)).toEqual([]);
    expect(reborn.getMeta('owner')).toBeUndefined();
  });

  it('refuses a schema name that is not a sandbox schema before it reaches SQL', async () => {
    const uuid = randomUUID();
    expect(sandboxSchemaName(uuid.toUpperCase())).toBe(`scheme_sim_sbx_${uuid.replaceAll('-', '')}`);
    expect(() => sandboxSchemaName('default')).toThrow(StoreError);
    expect(() => sandboxSchemaName(`${uuid}"; DROP SCHEMA public CASCADE; --`)).toThrow(StoreError);
    const hostile = [
      'public',
      `scheme_sim_sbx_${'0'.repeat(32)}"; DROP SCHEMA public CASCADE; --`,
      `scheme_sim_sbx_${'0'.repeat(31)}`,
      `scheme_sim_sbx_${'F'.repeat(32)}`,
    ];
    await defaultStore();
    for (const name of hostile) {
      await expect(openStore({ postgresPool: pool, postgresSchema: name })).rejects.toThrow(
        'is not a sandbox schema name',
      );
      await expect(pool.dropSandboxSchema(name)).rejects.toThrow('is not a sandbox schema name');
    }
    expect(await sql("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).toEqual([{ n: 2 }]);
    await expect(openStore({ postgresSchema: newSchema() })).rejects.toThrow(
      'needs both postgresSchema and postgresPool',
    );
    await expect(openStore({ postgresPool: pool })).rejects.toThrow('needs both postgresSchema and postgresPool');
    await expect(openStore({ postgres: url, postgresPool: pool, postgresSchema: newSchema() })).rejects.toThrow(
      'takes its database from postgresPool',
    );
  });

  it('refuses a second store on one schema in a process until the first closes', async () => {
    const schema = newSchema();
    const first = await sandbox(schema);
    await expect(sandbox(schema)).rejects.toThrow(
      `schema ${schema} of database ${url} is already open in this process`,
    );
    await close(first);
    await sandbox(schema);
  });

  it('opens and commits 50 sandboxes at once on 4 pooled connections, and reloads them all', async () => {
    const schemas = Array.from({ length: 50 }, newSchema);
    const monitor = new pg.Client({ connectionString: url });
    await monitor.connect();
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await monitor.query(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
        most = Math.max(most, rows[0].n);
      }
    })();
    try {
      const opened = await Promise.all(schemas.map((schema) => sandbox(schema)));
      opened.forEach((store, i) => {
        for (let n = 0; n < 20; n++) store.collection<Row>('accounts').put({ id: `s${i}-${n}`, n });
        store.setMeta('index', i);
      });
      await Promise.all(opened.map((store) => store.commit()));
      await Promise.all(opened.map((store) => close(store)));
      const again = await Promise.all(schemas.map((schema) => sandbox(schema)));
      again.forEach((store, i) => {
        expect(store.getMeta('index')).toBe(i);
        expect(ids(store)).toEqual(Array.from({ length: 20 }, (_, n) => `s${i}-${n}`));
      });
    } finally {
      sampling = false;
      await sampler;
      await monitor.end();
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(4);
    expect(await pool.listSandboxSchemas()).toEqual([...schemas].sort());
  }, 60_000);

  it('rolls back a commit the database refuses, gives its connection back, and commits the next', async () => {
    const single = await poolOn(1);
    const schema = newSchema();
    const store = await sandbox(schema, single);
    store.collection<Row>('accounts').put({ id: 'a1' });
    store.collection<Row>('names').put({ id: 'n0' });
    await store.commit();
    // An operator's constraint refuses the second table's write, after the first table's.
    await sql(`ALTER TABLE ${schema}.scheme_sim_c_names ADD CONSTRAINT no_refused CHECK (id <> 'refused')`);
    store.collection<Row>('accounts').put({ id: 'a2' });
    store.collection<Row>('names').put({ id: 'refused' });
    store.setMeta('v', 2);
    const refused = store.commit();
    await expect(refused).rejects.toThrow(StoreError);
    await expect(refused).rejects.toThrow(
      `cannot write the store to database ${url} (schema ${schema}): new row for relation "scheme_sim_c_names" violates check constraint "no_refused"`,
    );
    expect(await sql(`SELECT id FROM ${schema}.scheme_sim_c_accounts ORDER BY pos`)).toEqual([{ id: 'a1' }]);
    expect(await sql(`SELECT key FROM ${schema}.scheme_sim_meta`)).toEqual([]);

    // The one connection went back: the store hands the changes again with the next commit.
    store.collection<Row>('names').delete('refused');
    await store.commit();
    await close(store);
    const again = await sandbox(schema, single);
    expect(ids(again)).toEqual(['a1', 'a2']);
    expect(ids(again, 'names')).toEqual(['n0']);
    expect(again.getMeta('v')).toBe(2);
  });

  it('replaces pooled connections the server killed, with a warning', async () => {
    const store = await sandbox(newSchema());
    store.collection<Row>('accounts').put({ id: 'a1' });
    await store.commit();
    await sql(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    await expect.poll(() => warnings.join('\n')).toContain(`lost an idle connection to ${url}`);
    store.collection<Row>('accounts').put({ id: 'a2' });
    await store.commit();
    await close(store);
  });

  it('reports a pool that cannot connect, never with the password, and refuses use after close', async () => {
    const port = await freePort();
    const opening = openPostgresPool(`postgres://sim:hunter2@127.0.0.1:${port}/ledger`);
    const message = await opening.then(
      () => 'opened',
      (err: Error) => `${err.constructor.name}: ${err.message}`,
    );
    expect(message).toContain(`StoreError: cannot connect to database postgres://sim@127.0.0.1:${port}/ledger`);
    expect(message).not.toContain('hunter2');

    const closed = await poolOn(2);
    await closed.close();
    await expect(sandbox(newSchema(), closed)).rejects.toThrow(`the PostgreSQL pool of ${url} is closed`);
    await expect(closed.listSandboxSchemas()).rejects.toThrow('is closed');
  });
});
