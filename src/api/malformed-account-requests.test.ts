import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MALFORMED_ACCOUNT_REQUESTS, sendRow, validAttributes } from '../harness/malformed-account-requests.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { schemaValidator } from './schemas/index.ts';

const BASE = '/v1/organisation/accounts';
const EXISTING = '0d6f6c2e-7a3b-4c1d-9e8f-5a4b3c2d1e0f';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await testRuntime();
  const res = await rt.call('POST', BASE, {
    data: { id: EXISTING, organisation_id: NORTHWIND.organisation_id, type: 'accounts', attributes: validAttributes() },
  });
  expect(res.status).toBe(201);
});
afterAll(() => rt.close());

describe('malformed account requests', () => {
  it('the catalogue holds at least 50 distinct cases', () => {
    expect(MALFORMED_ACCOUNT_REQUESTS.length).toBeGreaterThanOrEqual(50);
    expect(new Set(MALFORMED_ACCOUNT_REQUESTS.map((r) => r.label)).size).toBe(MALFORMED_ACCOUNT_REQUESTS.length);
  });

  it.each(MALFORMED_ACCOUNT_REQUESTS.map((r) => [r.label, r] as const))(
    '%s → 4xx naming the field',
    async (_label, row) => {
      const errors = vi.spyOn(console, 'error');
      const res = await sendRow(rt, row, EXISTING);
      const json = (await res.json()) as { error_message: string };
      expect(res.status, json.error_message).toBe(row.status);
      expect(schemaValidator('error')(json)).toBe(true);
      expect(json.error_message).toContain(row.message);
      expect(errors).not.toHaveBeenCalled();
      errors.mockRestore();
    },
  );

  it('left the existing account untouched', async () => {
    const res = await rt.call('GET', `${BASE}/${EXISTING}`);
    expect(((await res.json()) as { data: { version: number } }).data.version).toBe(0);
    const list = (await (await rt.call('GET', BASE)).json()) as { data: unknown[] };
    expect(list.data).toHaveLength(1);
  });

  it('names every violated rule in one message', async () => {
    const res = await rt.call('POST', BASE, {
      data: {
        id: 'x',
        organisation_id: NORTHWIND.organisation_id,
        type: 'accounts',
        attributes: { country: 'gb', name: [] },
      },
    });
    const { error_message } = (await res.json()) as { error_message: string };
    expect(error_message).toMatch(/^validation failure list:\n/);
    for (const part of [
      'id in body must be of type uuid',
      "country in body should match '^[A-Z]{2}$'",
      'name in body should have at least 1 items',
    ]) {
      expect(error_message).toContain(part);
    }
  });

  it('lets a PATCH through for an account stored with an attribute no longer allowed (a data file from before)', async () => {
    const id = crypto.randomUUID();
    rt.sim.accounts.create({
      id,
      organisation_id: NORTHWIND.organisation_id,
      attributes: { ...validAttributes(), account_number: '41426820', colour: 'red' },
    });
    const res = await rt.call('PATCH', `${BASE}/${id}`, { data: { version: 0, attributes: { switched: true } } });
    expect(res.status, await res.clone().text()).toBe(200);
    // An undeclared key in the change is ignored, as Form3 ignores it: the stored one stays.
    const ignored = await rt.call('PATCH', `${BASE}/${id}`, { data: { version: 1, attributes: { colour: 'blue' } } });
    expect(ignored.status).toBe(200);
    expect(rt.sim.accounts.get(id, NORTHWIND.organisation_id).attributes.colour).toBe('red');
  });

  it('validates the account a PATCH would make, not only the change', async () => {
    const id = crypto.randomUUID();
    await rt.call('POST', BASE, {
      data: {
        id,
        organisation_id: NORTHWIND.organisation_id,
        type: 'accounts',
        attributes: { country: 'FR', name: ['Anne'] },
      },
    });
    const res = await rt.call('PATCH', `${BASE}/${id}`, { data: { version: 0, attributes: { country: 'GB' } } });
    expect(res.status).toBe(400);
    const { error_message } = (await res.json()) as { error_message: string };
    expect(error_message).toContain('bank_id in body is required for country GB');
    expect(error_message).toContain('bic in body is required for country GB');
  });
});
