import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UNDECLARED_ACCOUNT_KEYS, undeclaredKeyOf } from '../../test/support/undeclared-account-keys.ts';
import { sendRow, validAttributes } from '../harness/malformed-account-requests.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';

const BASE = '/v1/organisation/accounts';

async function withExisting(rt: TestRuntime): Promise<string> {
  const id = crypto.randomUUID();
  const res = await rt.call('POST', BASE, {
    data: {
      id,
      organisation_id: NORTHWIND.organisation_id,
      attributes: { ...validAttributes(), account_number: '70000001' },
    },
  });
  expect(res.status).toBe(201);
  return id;
}

describe('keys the model does not declare, as Form3 reads them: ignored', () => {
  let rt: TestRuntime;
  beforeEach(async () => {
    rt = await testRuntime();
  });
  afterEach(() => rt.close());

  it.each(UNDECLARED_ACCOUNT_KEYS.map((r) => [r.label, r] as const))('%s → accepted, not stored', async (_l, row) => {
    const existing = await withExisting(rt);
    const id = crypto.randomUUID();
    const res = await sendRow(rt, row, existing, id);
    expect(res.status, await res.clone().text()).toBe(row.method === 'POST' ? 201 : 200);
    const stored = rt.sim.accounts.get(row.method === 'POST' ? id : existing, NORTHWIND.organisation_id);
    expect(Object.hasOwn(stored.attributes, undeclaredKeyOf(row))).toBe(false);
    expect(Object.getPrototypeOf(stored.attributes)).toBe(Object.prototype);
    const body = (await res.json()) as { data: { attributes: Record<string, unknown> } };
    expect(Object.hasOwn(body.data.attributes, undeclaredKeyOf(row))).toBe(false);
  });

  it('a claim, a subscription: an undeclared attribute is dropped too', async () => {
    const res = await rt.call('POST', '/v1/notification/subscriptions', {
      data: {
        id: crypto.randomUUID(),
        organisation_id: NORTHWIND.organisation_id,
        attributes: {
          event_type: 'created',
          record_type: 'accounts',
          callback_transport: 'http',
          callback_uri: 'https://receiver.example.test/hook',
          colour: 'red',
        },
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const body = (await res.json()) as { data: { attributes: Record<string, unknown> } };
    expect(body.data.attributes.colour).toBeUndefined();
  });
});

describe('with --strict: refused, naming the key', () => {
  let rt: TestRuntime;
  beforeEach(async () => {
    rt = await testRuntime({ strict: true });
  });
  afterEach(() => rt.close());

  it.each(UNDECLARED_ACCOUNT_KEYS.map((r) => [r.label, r] as const))('%s → 400', async (_l, row) => {
    const existing = await withExisting(rt);
    const res = await sendRow(rt, row, existing);
    const { error_message } = (await res.json()) as { error_message: string };
    expect(res.status).toBe(row.status);
    expect(error_message).toContain(row.message);
    expect(rt.sim.accounts.get(existing, NORTHWIND.organisation_id).version).toBe(0);
  });
});
