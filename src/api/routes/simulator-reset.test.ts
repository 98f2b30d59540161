import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimRequestAttributes } from '../../../test/support/claim-requests.ts';
import { HARBOUR, NORTHWIND, TEST_START, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { schemaValidator } from '../schemas/index.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const ACCOUNT = '0c4e0ef4-9c8e-4a1b-8f5e-0d9d1f0e1a11';

describe('POST /v1/simulator/reset', () => {
  it('with scope all drops records, jobs and clock state, keeps tokens valid, and runs the reset hooks', async () => {
    const created = await rt.call('POST', '/v1/organisation/accounts', {
      data: {
        id: ACCOUNT,
        organisation_id: NORTHWIND.organisation_id,
        type: 'accounts',
        attributes: {
          country: 'GB',
          bank_id: '400300',
          bank_id_code: 'GBDSC',
          bic: 'NWBKGB22',
          account_number: '41426819',
          name: ['A Holder'],
        },
      },
    });
    expect(created.status).toBe(201);
    rt.sim.scheduler.schedule('nobody', new Date('2027-06-01T00:00:00Z'), {});
    await rt.call('POST', '/v1/simulator/clock/advance', { working_days: 5 });
    await rt.call('POST', '/v1/simulator/clock/resume', { speed: 3 });
    let hooks = 0;
    rt.sim.onReset(() => hooks++);

    const res = await rt.call('POST', '/v1/simulator/reset', { scope: 'all' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(schemaValidator('clock')(body)).toBe(true);
    expect(body.meta).toEqual({ reset: { scope: 'all' } });
    expect(body.data).toMatchObject({ now: TEST_START, mode: 'frozen', speed: 1, next_due: null, pending_jobs: 0 });
    expect(hooks).toBe(1);
    expect((await rt.call('GET', `/v1/organisation/accounts/${ACCOUNT}`)).status).toBe(404);
    expect(rt.sim.store.getMeta('auth_key')).toBeTypeOf('string');
    expect(rt.sim.store.getMeta('clock')).toMatchObject({ mode: 'frozen', virtual_ms: Date.parse(TEST_START) });
    // The same id can be created again: the indexes were emptied with the rows.
    const again = await rt.call('POST', '/v1/organisation/accounts', {
      data: {
        id: ACCOUNT,
        organisation_id: NORTHWIND.organisation_id,
        type: 'accounts',
        attributes: {
          country: 'GB',
          bank_id: '400300',
          bank_id_code: 'GBDSC',
          bic: 'NWBKGB22',
          account_number: '41426819',
          name: ['A Holder'],
        },
      },
    });
    expect(again.status).toBe(201);
  });

  it('keeps every secret clients rely on, and the ledger of them: a reset makes no key anew', async () => {
    rt.sim.notificationKeys.rotate();
    const secrets = ['auth_key', 'notification_signing_keys', 'issued_secrets'];
    const before = secrets.map((k) => rt.sim.store.getMeta(k));
    expect(rt.sim.store.getMeta('issued_secrets')).toEqual(['auth_key', 'notification_signing_keys']);
    expect((await rt.call('POST', '/v1/simulator/reset', { scope: 'all' })).status).toBe(200);
    expect(secrets.map((k) => rt.sim.store.getMeta(k))).toEqual(before);
  });

  it('accepts an empty object and refuses unknown keys and scopes', async () => {
    expect((await rt.call('POST', '/v1/simulator/reset', {})).status).toBe(200);
    const scope = await rt.call('POST', '/v1/simulator/reset', { scope: 'everything' });
    expect(scope.status).toBe(400);
    expect(((await scope.json()) as any).error_message).toMatch(
      /scope in body should be one of \[organisation, all\]|scope in body/,
    );
    const res = await rt.call('POST', '/v1/simulator/reset', { keep: 'accounts' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error_message).toMatch(/keep in body is not allowed/);
    expect((await rt.call('GET', '/v1/simulator/reset')).status).toBe(405);
  });
});

/** Creates a record through the API as `client`; returns its id. */
async function make(client: typeof NORTHWIND, path: string, type: string, attributes: object): Promise<string> {
  const id = randomUUID();
  const res = await rt.call(
    'POST',
    path,
    { data: { id, organisation_id: client.organisation_id, type, attributes } },
    { client },
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return id;
}

const account = (bank: { bank_id: string; bic: string }) => ({
  country: 'GB',
  ...bank,
  bank_id_code: 'GBDSC',
  account_number: '41426819',
  name: ['A Holder'],
});
const claim = claimRequestAttributes();
const subscription = {
  event_type: 'created',
  record_type: 'accounts',
  callback_transport: 'http',
  callback_uri: 'http://127.0.0.1:9/hooks',
};

describe('POST /v1/simulator/reset of one organisation', () => {
  async function populate(client: typeof NORTHWIND) {
    const sub = await make(client, '/v1/notification/subscriptions', 'subscriptions', subscription);
    const acc = await make(client, '/v1/organisation/accounts', 'accounts', account(client.bank));
    const cl = await make(client, '/v1/transaction/claims', 'claims', claim);
    const submitted = await rt.call(
      'POST',
      `/v1/transaction/claims/${cl}/submissions`,
      { data: { id: randomUUID(), organisation_id: client.organisation_id, type: 'claim_submissions' } },
      { client },
    );
    expect(submitted.status).toBe(201);
    return { sub, acc, cl };
  }

  it("drops the caller's records, deliveries and jobs, and leaves the other's accounts, claims and subscriptions", async () => {
    const northwind = await populate(NORTHWIND);
    const harbour = await populate(HARBOUR);
    const harbourJobs = rt.sim.scheduler.pendingOf(HARBOUR.organisation_id).count;
    const clockBefore = rt.sim.clock.now().toISOString();

    const res = await rt.call('POST', '/v1/simulator/reset', undefined, { client: HARBOUR });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(schemaValidator('clock')(body)).toBe(true);
    expect(body.meta.reset).toMatchObject({
      scope: 'organisation',
      organisation_id: HARBOUR.organisation_id,
      records: { accounts: 1, claims: 1, claim_submissions: 1, subscriptions: 1, notification_outbox: 1 },
      jobs: harbourJobs,
    });
    expect(body.data).toMatchObject({ now: clockBefore, pending_jobs: 0 });

    const get = (path: string, client: typeof NORTHWIND) => rt.call('GET', path, undefined, { client });
    expect((await get(`/v1/organisation/accounts/${harbour.acc}`, HARBOUR)).status).toBe(404);
    expect((await get(`/v1/transaction/claims/${harbour.cl}`, HARBOUR)).status).toBe(404);
    expect((await get(`/v1/notification/subscriptions/${harbour.sub}`, HARBOUR)).status).toBe(404);
    expect(rt.sim.subscriptions.secretOf(harbour.sub)).toBeUndefined();
    expect((await get(`/v1/organisation/accounts/${northwind.acc}`, NORTHWIND)).status).toBe(200);
    expect((await get(`/v1/transaction/claims/${northwind.cl}`, NORTHWIND)).status).toBe(200);
    expect((await get(`/v1/notification/subscriptions/${northwind.sub}`, NORTHWIND)).status).toBe(200);
    expect(rt.sim.scheduler.pendingOf(NORTHWIND.organisation_id).count).toBeGreaterThan(0);
    expect(rt.sim.outbox.entries.values().map((e) => e.organisation_id)).toEqual([NORTHWIND.organisation_id]);
  });

  it("refuses a reset of everything to a member, naming the role, and leaves everyone's data", async () => {
    const northwind = await populate(NORTHWIND);
    const res = await rt.call('POST', '/v1/simulator/reset', { scope: 'all' }, { client: HARBOUR });
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error_message).toBe(
      'a reset of every organisation (scope all) needs a client with role admin; client harbour-dev (8c2f1d4e-3b5a-4c6d-8e7f-9a0b1c2d3e4f) has role member (set "role": "admin" on it in the clients file)',
    );
    expect((await rt.call('GET', `/v1/organisation/accounts/${northwind.acc}`)).status).toBe(200);
  });

  it('with --auth off resets the default organisation, and everything on asking', async () => {
    const open = await testRuntime({ auth: 'off' });
    const post = (body?: object) =>
      open.app.request('/v1/simulator/reset', {
        method: 'POST',
        ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
      });
    expect(((await (await post()).json()) as any).meta.reset.scope).toBe('organisation');
    expect(((await (await post({ scope: 'all' })).json()) as any).meta.reset.scope).toBe('all');
    await open.close();
  });
});
