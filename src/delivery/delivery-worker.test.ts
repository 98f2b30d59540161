import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestReceiver } from '../../test/support/webhook-receiver.ts';
import { schemaValidator } from '../api/schemas/index.ts';
import { systemClock } from '../clock/clock.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import type { RuntimeOptions } from '../runtime.ts';
import { verify } from '../signatures/notifications/standard-webhooks.ts';
import { FAST_RETRY_SCHEDULE } from '../sim/notifications/retry-schedule.ts';

// The running worker (real timers, wall clock) against a real local HTTP receiver.

const SERVER_SECRET = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const OWN_SECRET = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
let rt: TestRuntime;
let receiver: TestReceiver;

async function open(options: RuntimeOptions = {}): Promise<void> {
  rt = await testRuntime({
    wall: systemClock,
    retrySchedule: FAST_RETRY_SCHEDULE,
    delivery: { timeoutMs: 5000 },
    ...options,
  });
  rt.start();
}
beforeEach(async () => {
  receiver = new TestReceiver();
  await receiver.up();
});
afterEach(async () => {
  await rt.close();
  await receiver.down();
});

async function subscribe(attributes: Record<string, unknown> = {}): Promise<string> {
  const id = crypto.randomUUID();
  const res = await rt.call('POST', '/v1/notification/subscriptions', {
    data: {
      id,
      organisation_id: NORTHWIND.organisation_id,
      type: 'subscriptions',
      attributes: {
        event_type: 'created',
        record_type: 'accounts',
        callback_transport: 'http',
        callback_uri: receiver.url,
        ...attributes,
      },
    },
  });
  expect(res.status).toBe(201);
  return id;
}
async function createAccount(n = 0): Promise<string> {
  const id = crypto.randomUUID();
  const res = await rt.call('POST', '/v1/organisation/accounts', {
    data: {
      id,
      organisation_id: NORTHWIND.organisation_id,
      type: 'accounts',
      attributes: {
        country: 'GB',
        bank_id: '400300',
        bank_id_code: 'GBDSC',
        bic: 'NWBKGB22',
        account_number: String(41426800 + n),
        name: ['Sam Holder'],
      },
    },
  });
  expect(res.status).toBe(201);
  return id;
}
const entries = () => rt.sim.outbox.entries.values();

describe('delivery worker over http', () => {
  it('prunes finished deliveries past the retention as it goes', async () => {
    await open({ deliveryRetention: { maxAgeMs: 50, maxFinished: 100 } });
    await subscribe();
    const first = await createAccount(1);
    await TestReceiver.until(() => entries().some((e) => e.status === 'delivered'), 'the first delivery');
    await new Promise((r) => setTimeout(r, 80));
    const second = await createAccount(2); // the worker looks at the outbox again, and prunes
    await TestReceiver.until(
      () => entries().length === 1 && entries()[0]!.status === 'delivered',
      'the second delivery alone',
    );
    const kept = entries()[0]!.notification as unknown as { data: { data: { id: string } } };
    expect(kept.data.data.id).toBe(second);
    expect(kept.data.data.id).not.toBe(first);
    expect(rt.sim.outbox.attempts.size).toBe(1);
  });

  it('POSTs the signed notification JSON and a receiver can verify it', async () => {
    await open({ webhookSecret: SERVER_SECRET });
    await subscribe();
    const accountId = await createAccount();
    await TestReceiver.until(() => receiver.delivered.length === 1, 'one delivery');
    const req = receiver.requests[0]!;
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toBe('scheme-sim');
    const n = JSON.parse(req.body);
    expect(schemaValidator('notification')(n)).toBe(true);
    expect(n.data.data.id).toBe(accountId);
    expect(req.headers['webhook-id']).toBe(n.id);
    const headers = {
      id: String(req.headers['webhook-id']),
      timestamp: String(req.headers['webhook-timestamp']),
      signature: String(req.headers['webhook-signature']),
    };
    expect(verify(SERVER_SECRET, headers, req.body)).toBe(true);
    expect(verify(OWN_SECRET, headers, req.body)).toBe(false);
    await TestReceiver.until(() => entries()[0]?.status === 'delivered', 'the success to be recorded');
  });

  it("signs with the subscription's own secret in preference to the server's", async () => {
    await open({ webhookSecret: SERVER_SECRET });
    await subscribe({ secret: OWN_SECRET });
    await createAccount();
    await TestReceiver.until(() => receiver.delivered.length === 1, 'one delivery');
    const req = receiver.requests[0]!;
    const headers = {
      id: String(req.headers['webhook-id']),
      timestamp: String(req.headers['webhook-timestamp']),
      signature: String(req.headers['webhook-signature']),
    };
    expect(verify(OWN_SECRET, headers, req.body)).toBe(true);
  });

  it('sends unsigned (webhook-id only) when no secret is set', async () => {
    await open();
    await subscribe();
    await createAccount();
    await TestReceiver.until(() => receiver.delivered.length === 1, 'one delivery');
    expect(receiver.requests[0]!.headers['webhook-signature']).toBeUndefined();
    expect(receiver.requests[0]!.headers['webhook-id']).toBeDefined();
  });

  it('retries a receiver that fails the first 3 calls, with the same notification id, and records one success', async () => {
    await open();
    const sub = await subscribe();
    await createAccount();
    receiver.script.push(500, 502, 429);
    await TestReceiver.until(() => entries()[0]?.status === 'delivered', 'delivery');
    expect(receiver.requests.map((r) => r.status)).toEqual([500, 502, 429, 200]);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const attempts = rt.sim.outbox.attempts.values();
    expect(attempts.filter((a) => a.status === 'succeeded')).toHaveLength(1);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    const errors = (await (await rt.call('GET', `/v1/notification/subscriptions/${sub}/errors`)).json()) as any;
    expect(schemaValidator('subscription-delivery-error-list')(errors)).toBe(true);
    expect(errors.data.map((e: any) => e.attributes.response_code)).toEqual([500, 502, 429]);
  });

  it('keeps retrying while the receiver is down and delivers once it is up', async () => {
    await open();
    const sub = await subscribe();
    await receiver.down();
    await createAccount();
    await TestReceiver.until(() => rt.sim.outbox.attempts.size >= 3, 'three failed attempts');
    await receiver.up();
    await TestReceiver.until(() => entries()[0]?.status === 'delivered', 'delivery after the receiver came up');
    const errors = (await (await rt.call('GET', `/v1/notification/subscriptions/${sub}/errors`)).json()) as any;
    expect(errors.data[0].attributes).toMatchObject({ error_category: 'connection_error', response_code: null });
    expect(errors.data[0].attributes.error_message).toContain('ECONNREFUSED');
    expect(receiver.delivered).toHaveLength(1);
  });

  it('deactivates the subscription when the callback answers 410, and stops', async () => {
    await open();
    const sub = await subscribe();
    receiver.otherwise = 410;
    await createAccount(0);
    await TestReceiver.until(() => entries()[0]?.status === 'cancelled', 'the 410 to be handled');
    const s = (await (await rt.call('GET', `/v1/notification/subscriptions/${sub}`)).json()) as any;
    expect(s.data).toMatchObject({ version: 1, attributes: { deactivated: true } });
    await createAccount(1);
    expect(rt.sim.outbox.entries.size).toBe(1);
    expect(receiver.requests).toHaveLength(1);
    const errors = (await (await rt.call('GET', `/v1/notification/subscriptions/${sub}/errors`)).json()) as any;
    expect(errors.data[0].attributes.error_category).toBe('subscription_gone');
  });

  it('times out a receiver that hangs, records a timeout, and retries', async () => {
    await open({ delivery: { timeoutMs: 1000 } });
    const sub = await subscribe();
    receiver.script.push('hang');
    await createAccount();
    await TestReceiver.until(() => entries()[0]?.status === 'delivered', 'delivery after the hang');
    expect(receiver.requests).toHaveLength(2);
    const errors = (await (await rt.call('GET', `/v1/notification/subscriptions/${sub}/errors`)).json()) as any;
    expect(errors.data).toHaveLength(1);
    expect(errors.data[0].attributes).toMatchObject({
      error_category: 'timeout',
      error_message: 'no response within 1000 ms',
    });
    const list = (await (
      await rt.call('GET', `/v1/simulator/deliveries?filter[subscription_id]=${sub}&filter[status]=failed`)
    ).json()) as any;
    expect(schemaValidator('delivery-attempt-list')(list)).toBe(true);
    expect(list.data).toHaveLength(1);
    expect(list.data[0].attributes).toMatchObject({ attempt: 1, transport: 'http', response_code: null });
  });

  it('does not let a hanging callback hold up another subscription, and a stop leaves its attempts pending', async () => {
    await open({ delivery: { timeoutMs: 10_000, concurrency: 16, perSubscription: 4 } });
    const healthy = new TestReceiver();
    await healthy.up();
    try {
      receiver.otherwise = 'hang';
      const slow = await subscribe();
      await subscribe({ callback_uri: healthy.url });
      for (let i = 0; i < 10; i++) await createAccount(i);
      await TestReceiver.until(() => healthy.delivered.length === 10, 'the healthy subscription to get all 10');
      await TestReceiver.until(() => receiver.requests.length === 4, 'four hanging requests to the slow callback');
      await rt.close();
      const stuck = rt.sim.outbox.entries.values().filter((e) => e.subscription_id === slow);
      expect(stuck).toHaveLength(10);
      expect(stuck.every((e) => e.status === 'pending' && e.attempts === 0)).toBe(true);
      expect(rt.sim.outbox.attempts.values().filter((a) => a.subscription_id === slow)).toHaveLength(0);
    } finally {
      await healthy.down();
    }
  });
});

describe('runtime options of delivery', () => {
  it('refuses a malformed server webhook secret and a senseless retry schedule', async () => {
    await expect(testRuntime({ webhookSecret: 'not-a-secret' })).rejects.toThrow(/webhook secret must be "whsec_"/);
    await expect(testRuntime({ retrySchedule: { ...FAST_RETRY_SCHEDULE, jitter: 2 } })).rejects.toThrow(/jitter/);
    await open({ webhookSecret: SERVER_SECRET }); // a valid one is accepted (and gives afterEach a runtime to close)
  });

  it('refuses a senseless delivery retention and fills the fields left out from the default', async () => {
    await expect(testRuntime({ deliveryRetention: { maxAgeMs: 0 } })).rejects.toThrow(
      'delivery retention maxAgeMs must be a positive number of milliseconds, got 0',
    );
    await expect(testRuntime({ deliveryRetention: { maxFinished: 1.5 } })).rejects.toThrow(
      'delivery retention maxFinished must be a whole number ≥ 0, got 1.5',
    );
    await open({ deliveryRetention: { maxFinished: 3 } });
    expect(rt.sim.outbox.retention).toEqual({ maxAgeMs: 7 * 24 * 3_600_000, maxFinished: 3 });
  });
});
