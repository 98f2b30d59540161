import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NORTHWIND, TEST_START, type TestRuntime, testRuntime } from '../../../test/support/testing.ts';
import { schemaValidator } from '../schemas/index.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const ACCOUNT = '0c4e0ef4-9c8e-4a1b-8f5e-0d9d1f0e1a11';

describe('POST /v1/simulator/reset', () => {
  it('drops records, jobs and clock state, keeps tokens valid, and runs the reset hooks', async () => {
    const created = await rt.call('POST', '/v1/organisation/accounts', {
      data: {
        id: ACCOUNT,
        organisation_id: NORTHWIND.organisation_id,
        type: 'accounts',
        attributes: {
          country: 'GB',
          bank_id: '400300',
          bank_id_code: 'GBDSC',
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

    const res = await rt.call('POST', '/v1/simulator/reset');
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(schemaValidator('clock')(body)).toBe(true);
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
          account_number: '41426819',
          name: ['A Holder'],
        },
      },
    });
    expect(again.status).toBe(201);
  });

  it('accepts an empty object and refuses unknown keys', async () => {
    expect((await rt.call('POST', '/v1/simulator/reset', {})).status).toBe(200);
    const res = await rt.call('POST', '/v1/simulator/reset', { keep: 'accounts' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error_message).toMatch(/keep in body is not allowed/);
    expect((await rt.call('GET', '/v1/simulator/reset')).status).toBe(405);
  });
});
