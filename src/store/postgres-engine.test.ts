import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postgresForTests } from '../../test/support/postgres-for-tests.ts';
import { freePort } from '../harness/postgres-server.ts';
import type { Row } from './collection.ts';
import type { ChangeSet, Engine } from './engine.ts';
import { openPostgresEngine } from './postgres-engine.ts';
import { collectionTableName } from './postgres-tables.ts';
import { toDocument } from './store-data.ts';
import { StoreError } from './store-error.ts';

const postgres = postgresForTests();

/** A change set from plain objects: a row of null is a delete, a meta value of undefined too. */
function changeSet(
  rows: Record<string, Record<string, Row | null>>,
  meta: Record<string, unknown> = {},
  cleared?: { keepMeta: string[] },
): ChangeSet {
  return {
    cleared,
    rows: new Map(Object.entries(rows).map(([name, byId]) => [name, new Map(Object.entries(byId))])),
    placed: new Map(),
    meta: new Map(Object.entries(meta)),
  };
}

describe.skipIf(!postgres.available)('the PostgreSQL store engine', () => {
  let url: string;
  const open: Engine[] = [];
  const warnings: string[] = [];
  afterEach(async () => {
    for (const engine of open.splice(0)) await engine.close();
    warnings.length = 0;
  });

  async function engineOn(databaseUrl = url): Promise<Engine> {
    const engine = await openPostgresEngine(databaseUrl, { warn: (m) => warnings.push(m) });
    open.push(engine);
    return engine;
  }

  /** The engine a later simulator opens, after this one is closed (its load is what survived). */
  async function reopen(engine: Engine): Promise<Engine> {
    await engine.close();
    return engineOn();
  }

  async function reload(engine: Engine) {
    return toDocument(await (await reopen(engine)).load());
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

  beforeEach(async () => {
    url = await postgres.server.createDatabase();
  });

  it('loads an empty store from a new database, and names it without the password', async () => {
    const withPassword = url.replace('postgres@', 'postgres:s3cret@');
    const engine = await engineOn(withPassword);
    expect(toDocument(await engine.load())).toEqual({ format: 1, meta: {}, collections: {} });
    expect(engine.location).toBe(url);
    expect(engine.location).not.toContain('s3cret');
  });

  it('keeps rows and meta across a restart: upserts, deletes, and a clear that keeps some meta', async () => {
    let engine = await engineOn();
    await engine.persist(
      changeSet(
        { accounts: { a1: { id: 'a1', n: 1 } as Row, a2: { id: 'a2' } }, payments: { p1: { id: 'p1' } } },
        { clock: { at: '2026-12-21' }, tenants: ['x'], seed: 7 },
      ),
    );
    engine = await reopen(engine);
    let data = toDocument(await engine.load());
    expect(data.meta).toEqual({ clock: { at: '2026-12-21' }, tenants: ['x'], seed: 7 });
    expect(data.collections).toEqual({
      accounts: { a1: { id: 'a1', n: 1 }, a2: { id: 'a2' } },
      payments: { p1: { id: 'p1' } },
    });

    await engine.persist(changeSet({ accounts: { a1: { id: 'a1', n: 2 } as Row, a2: null } }, { seed: undefined }));
    engine = await reopen(engine);
    data = toDocument(await engine.load());
    expect(data.collections.accounts).toEqual({ a1: { id: 'a1', n: 2 } });
    expect(data.meta).toEqual({ clock: { at: '2026-12-21' }, tenants: ['x'] });

    await engine.persist(changeSet({ payments: { p9: { id: 'p9' } } }, { fresh: true }, { keepMeta: ['tenants'] }));
    data = await reload(engine);
    expect(data).toEqual({
      format: 1,
      meta: { tenants: ['x'], fresh: true },
      collections: { accounts: {}, payments: { p9: { id: 'p9' } } },
    });
  });

  it('writes the change set as it was when persist was called, whatever the store does next', async () => {
    const engine = await engineOn();
    const changes = changeSet({ accounts: { a1: { id: 'a1', n: 1 } as Row } }, { v: 1 });
    const persisting = engine.persist(changes);
    changes.rows.get('accounts')?.set('a1', { id: 'a1', n: 2 } as Row);
    changes.rows.set('late', new Map([['l1', { id: 'l1' }]]));
    changes.meta.set('v', 2);
    await persisting;
    expect(await reload(engine)).toEqual({
      format: 1,
      meta: { v: 1 },
      collections: { accounts: { a1: { id: 'a1', n: 1 } } },
    });
  });

  it('gives collections with odd names tables of their own and their exact names back', async () => {
    const names = ['name-verifications', 'Accounts', 'a b', 'a_b', 'a-b', 'ünïcödé', 'quote"name', 'x'.repeat(100), ''];
    const rows = Object.fromEntries(names.map((name) => [name, { [`id-${name}`]: { id: `id-${name}` } }]));
    const engine = await engineOn();
    await engine.persist(changeSet(rows));
    const data = await reload(engine);
    expect(data.collections).toEqual(rows);
    const tables = names.map(collectionTableName);
    expect(new Set(tables).size).toBe(names.length);
    for (const table of tables) expect(Buffer.byteLength(table)).toBeLessThanOrEqual(63);
  });

  it('refuses a second simulator on the same database until the first closes', async () => {
    const first = await engineOn();
    const refused = openPostgresEngine(url);
    await expect(refused).rejects.toThrow(StoreError);
    await expect(refused).rejects.toThrow(
      `database ${url} is in use by another scheme-sim process (advisory lock held); one simulator per database`,
    );
    await first.close();
    const second = await engineOn();
    expect(toDocument(await second.load())).toEqual({ format: 1, meta: {}, collections: {} });
  });

  it('loses a whole commit when its connection is killed mid-way, and reconnects for the next', async () => {
    const engine = await engineOn();
    await engine.persist(changeSet({ accounts: { a1: { id: 'a1' } }, payments: { p1: { id: 'p1' } } }, { v: 1 }));
    // Another session holds the payments table, so the commit stops there after writing accounts;
    // then its connection is killed, as a database restart or an admin would.
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    await blocker.query(`BEGIN; LOCK TABLE ${collectionTableName('payments')} IN ACCESS EXCLUSIVE MODE`);
    const failing = engine.persist(
      changeSet({ accounts: { a2: { id: 'a2' } }, payments: { p2: { id: 'p2' } } }, { v: 2 }),
    );
    failing.catch(() => undefined);
    await expect
      .poll(async () => (await sql("SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'")).length)
      .toBe(1);
    await sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
    );
    await expect(failing).rejects.toThrow(StoreError);
    await expect(failing).rejects.toThrow(`cannot write the store to database ${url}`);
    await blocker.query('ROLLBACK');
    await blocker.end();
    expect(warnings.join('\n')).toContain(`lost the connection to ${url}`);
    // Nothing of the killed commit is there, though its accounts row was written before the wait.
    expect(await sql(`SELECT id FROM ${collectionTableName('accounts')} ORDER BY id`)).toEqual([{ id: 'a1' }]);
    expect(await sql('SELECT key, value FROM scheme_sim_meta')).toEqual([{ key: 'v', value: 1 }]);

    // The store hands the failed changes again with its next commit; the engine reconnects for it.
    await engine.persist(changeSet({ accounts: { a2: { id: 'a2' } }, payments: { p2: { id: 'p2' } } }, { v: 2 }));
    expect(warnings.join('\n')).toContain(`reconnected to ${url}`);
    const data = await reload(engine);
    expect(data.meta).toEqual({ v: 2 });
    expect(Object.keys(data.collections.accounts ?? {}).sort()).toEqual(['a1', 'a2']);
  });

  it('keeps what JSONB refuses: NUL characters and lone surrogates, in rows and meta', async () => {
    let engine = await engineOn();
    const odd = { id: 'n1', name: 'a\u0000b', half: '\ud800x', text: 'a literal \\u0000' } as Row;
    await engine.persist(changeSet({ names: { n1: odd, plain: { id: 'plain' } } }, { odd: 'x\u0000' }));
    engine = await reopen(engine);
    const data = toDocument(await engine.load());
    expect(data.collections.names).toEqual({ n1: odd, plain: { id: 'plain' } });
    expect(data.meta).toEqual({ odd: 'x\u0000' });
  });

  it('leaves the previous state whole when the database rejects a row', async () => {
    const engine = await engineOn();
    await engine.persist(changeSet({ accounts: { a1: { id: 'a1' } }, names: { n0: { id: 'n0' } } }, { v: 1 }));
    // An operator's constraint refuses the second statement of the next commit.
    await sql(`ALTER TABLE ${collectionTableName('names')} ADD CONSTRAINT no_refused CHECK (id <> 'refused')`);
    const rejected = engine.persist(
      changeSet({ accounts: { a2: { id: 'a2' } }, names: { refused: { id: 'refused' } as Row } }, { v: 2 }),
    );
    await expect(rejected).rejects.toThrow(StoreError);
    await expect(rejected).rejects.toThrow(/cannot write the store to database .*no_refused/);
    // The session survives a failed statement: the same engine writes on.
    await engine.persist(changeSet({ accounts: { a3: { id: 'a3' } } }));
    const data = await reload(engine);
    expect(data).toEqual({
      format: 1,
      meta: { v: 1 },
      collections: { accounts: { a1: { id: 'a1' }, a3: { id: 'a3' } }, names: { n0: { id: 'n0' } } },
    });
  });

  it('writes and deletes 20,000 rows in one commit, in chunks', async () => {
    const many: Record<string, Row> = {};
    for (let i = 0; i < 20_000; i++) many[`r${i}`] = { id: `r${i}`, amount: i } as Row;
    let engine = await engineOn();
    await engine.persist(changeSet({ payments: many }));
    engine = await reopen(engine);
    let data = toDocument(await engine.load());
    expect(Object.keys(data.collections.payments ?? {})).toHaveLength(20_000);
    expect(data.collections.payments?.r19999).toEqual({ id: 'r19999', amount: 19999 });

    const gone = Object.fromEntries(Object.keys(many).map((id) => [id, null]));
    await engine.persist(changeSet({ payments: gone }));
    data = await reload(engine);
    expect(data.collections.payments).toEqual({});
  }, 60_000);

  it('reports a refused connection with the location and never the password', async () => {
    const port = await freePort();
    const opening = openPostgresEngine(`postgres://sim:hunter2@127.0.0.1:${port}/ledger`);
    await expect(opening).rejects.toThrow(StoreError);
    const message = await opening.catch((err: Error) => err.message);
    expect(message).toContain(`cannot connect to database postgres://sim@127.0.0.1:${port}/ledger`);
    expect(message).toContain('ECONNREFUSED');
    expect(message).not.toContain('hunter2');
  });
});
