import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestReceiver } from '../../../test/support/webhook-receiver.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

// The outbox driven by hand: a manual wall clock and runDue(), no timers, against a real receiver.

let rt: TestRuntime;
let receiver: TestReceiver;
beforeEach(async () => {
  receiver = new TestReceiver();
  await receiver.up();
  rt = await testRuntime({
    retrySchedule: { delaysMs: [0, 5000, 30000], repeatMs: 60000, giveUpAfterMs: 300000, jitter: 0 },
  });
});
afterEach(async () => {
  await rt.close();
  await receiver.down();
});

const subscribe = (attributes: Record<string, unknown> = {}, client = NORTHWIND) =>
  rt.call(
    'POST',
    '/v1/notification/subscriptions',
    {
      data: {
        id: crypto.randomUUID(),
        organisation_id: client.organisation_id,
        type: 'subscriptions',
        attributes: {
          event_type: 'created',
          record_type: 'accounts',
          callback_transport: 'http',
          callback_uri: receiver.url,
          ...attributes,
        },
      },
    },
    { client },
  );
const createAccount = (n = 0, client = NORTHWIND) =>
  rt.call(
    'POST',
    '/v1/organisation/accounts',
    {
      data: {
        id: crypto.randomUUID(),
        organisation_id: client.organisation_id,
        type: 'accounts',
        attributes: {
          country: 'GB',
          ...client.bank,
          bank_id_code: 'GBDSC',
          account_number: String(41426800 + n),
          name: ['Sam Holder'],
        },
      },
    },
    { client },
  );

describe('notifier and outbox', () => {
  it("names a subscription's first pending entry, in the order they were made, and moves on once it is delivered", async () => {
    const sub = (await (await subscribe()).json()) as { data: { id: string } };
    const other = (await (await subscribe({}, HARBOUR)).json()) as { data: { id: string } };
    await createAccount(1);
    await createAccount(2);
    await createAccount(3, HARBOUR);
    const mine = rt.sim.outbox.pending().filter((e) => e.subscription_id === sub.data.id);
    expect(mine).toHaveLength(2);
    expect(rt.sim.outbox.firstPending(sub.data.id)?.id).toBe(mine[0]!.id);
    expect(rt.sim.outbox.firstPending(other.data.id)?.subscription_id).toBe(other.data.id);
    expect(rt.sim.outbox.firstPending(crypto.randomUUID())).toBeUndefined();
    receiver.script.push(500, 500, 500); // failed attempts keep the order
    await rt.delivery.runDue();
    expect(rt.sim.outbox.firstPending(sub.data.id)?.id).toBe(mine[0]!.id);
    rt.wall.advanceMs(5000);
    await rt.delivery.runDue();
    expect(rt.sim.outbox.firstPending(sub.data.id)).toBeUndefined();
  });

  it('stores a notification with the change, only for matching subscriptions of the same organisation', async () => {
    await subscribe();
    await subscribe({ event_type: 'deleted' });
    await subscribe({}, HARBOUR);
    await createAccount();
    const pending = rt.sim.outbox.pending();
    expect(pending).toHaveLength(1);
    expect(pending[0]!.notification).toMatchObject({
      event_type: 'created',
      record_type: 'accounts',
      actioned_by: NORTHWIND.uuid,
      action_time: '2026-12-21T09:00:00.000Z',
    });
    expect(receiver.requests).toHaveLength(0); // nothing is sent before the worker runs
  });

  it('retries on the schedule in wall time and records the success once', async () => {
    const sub = (await (await subscribe()).json()) as any;
    await createAccount();
    receiver.script.push(500, 503);
    expect(await rt.delivery.runDue()).toBe(1);
    expect(await rt.delivery.runDue()).toBe(0); // not due yet
    rt.wall.advanceMs(5000);
    expect(await rt.delivery.runDue()).toBe(1);
    rt.wall.advanceMs(29_999);
    expect(await rt.delivery.runDue()).toBe(0);
    rt.wall.advanceMs(1);
    expect(await rt.delivery.runDue()).toBe(1);
    rt.wall.advanceMs(600_000);
    expect(await rt.delivery.runDue()).toBe(0);
    expect(receiver.requests.map((r) => r.status)).toEqual([500, 503, 200]);
    const attempts = (await (await rt.call('GET', '/v1/simulator/deliveries')).json()) as any;
    expect(
      attempts.data.map((a: any) => [a.attributes.attempt, a.attributes.status, a.attributes.response_code]),
    ).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 503],
      [3, 'succeeded', 200],
    ]);
    const errors = (await (await rt.call('GET', `/v1/notification/subscriptions/${sub.data.id}/errors`)).json()) as any;
    expect(errors.data.map((e: any) => e.attributes.error_category)).toEqual(['http_error', 'http_error']);
    expect(errors.data[0].attributes.error_message).toBe('callback answered 500: status 500');
  });

  it('abandons after the retry window and redelivers on request with the same id', async () => {
    await subscribe();
    await createAccount();
    receiver.otherwise = 500;
    for (let i = 0; i < 20; i++) {
      await rt.delivery.runDue();
      rt.wall.advanceMs(60_000);
    }
    const [entry] = rt.sim.outbox.entries.values();
    expect(entry).toMatchObject({ status: 'abandoned' });
    const attempts = receiver.requests.length;
    expect(attempts).toBeGreaterThan(3);
    receiver.otherwise = 200;
    const res = await rt.call('POST', `/v1/simulator/deliveries/${entry!.id}/redeliver`);
    expect(res.status).toBe(202);
    expect(((await res.json()) as any).data.attributes.status).toBe('pending');
    await rt.delivery.runDue();
    expect(receiver.requests).toHaveLength(attempts + 1);
    expect(receiver.requests.at(-1)!.headers['webhook-id']).toBe(entry!.id);
    expect(rt.sim.outbox.entries.get(entry!.id)!.status).toBe('delivered');
    expect((await rt.call('POST', `/v1/simulator/deliveries/${crypto.randomUUID()}/redeliver`)).status).toBe(404);
    expect(
      (await rt.call('POST', `/v1/simulator/deliveries/${entry!.id}/redeliver`, undefined, { client: HARBOUR })).status,
    ).toBe(404);
  });

  it('refuses (409) to redeliver a delivery still pending, and rate-limits redelivery (429) in wall time', async () => {
    await subscribe();
    await createAccount();
    const [entry] = rt.sim.outbox.entries.values();
    const pending = await rt.call('POST', `/v1/simulator/deliveries/${entry!.id}/redeliver`);
    expect(pending.status).toBe(409);
    expect(((await pending.json()) as any).error_message).toBe(
      `delivery ${entry!.id} is already pending (attempt 1 due at 2026-12-21T09:00:00.000Z); redeliver it once it has finished`,
    );
    expect(await rt.delivery.runDue()).toBe(1);
    expect(rt.sim.outbox.entries.get(entry!.id)!.status).toBe('delivered');
    expect((await rt.call('POST', `/v1/simulator/deliveries/${entry!.id}/redeliver`)).status).toBe(202);
    expect(await rt.delivery.runDue()).toBe(1);
    // Delivered again at once; a second redelivery within the interval (10 s of wall time) is refused.
    rt.wall.advanceMs(9_000);
    const soon = await rt.call('POST', `/v1/simulator/deliveries/${entry!.id}/redeliver`);
    expect(soon.status).toBe(429);
    expect(soon.headers.get('retry-after')).toBe('1');
    expect(((await soon.json()) as any).error_message).toBe(
      `delivery ${entry!.id} was redelivered less than 10 s ago; try again in 1 s`,
    );
    rt.wall.advanceMs(1_000);
    expect((await rt.call('POST', `/v1/simulator/deliveries/${entry!.id}/redeliver`)).status).toBe(202);
    expect(await rt.delivery.runDue()).toBe(1);
    expect(receiver.requests).toHaveLength(3);
  });

  it('takes the redelivery interval from the runtime options', async () => {
    const quick = await testRuntime({ redeliveryIntervalMs: 60_000 });
    try {
      expect(quick.sim.outbox.redeliveryIntervalMs).toBe(60_000);
    } finally {
      await quick.close();
    }
  });

  it('cancels pending deliveries of a deactivated subscription and refuses to redeliver them', async () => {
    const sub = (await (await subscribe()).json()) as any;
    await createAccount();
    await rt.call('PATCH', `/v1/notification/subscriptions/${sub.data.id}`, {
      data: { version: 0, attributes: { deactivated: true } },
    });
    expect(await rt.delivery.runDue()).toBe(0);
    const [entry] = rt.sim.outbox.entries.values();
    expect(entry).toMatchObject({ status: 'cancelled', status_reason: `subscription ${sub.data.id} is deactivated` });
    const res = await rt.call('POST', `/v1/simulator/deliveries/${entry!.id}/redeliver`);
    expect(res.status).toBe(409);
    expect(receiver.requests).toHaveLength(0);
  });

  it('does not loop on subscriptions to subscriptions: a 410 deactivates once', async () => {
    receiver.otherwise = 410;
    const sub = (await (await subscribe({ event_type: 'updated', record_type: 'subscriptions' })).json()) as any;
    await rt.call('PATCH', `/v1/notification/subscriptions/${sub.data.id}`, {
      data: { version: 0, attributes: { user_defined_data: [{ key: 'a', value: 'b' }] } },
    });
    expect(await rt.delivery.runDue()).toBe(1);
    expect(await rt.delivery.runDue()).toBe(0);
    const after = (await (await rt.call('GET', `/v1/notification/subscriptions/${sub.data.id}`)).json()) as any;
    expect(after.data).toMatchObject({ version: 2, attributes: { deactivated: true } });
    expect(rt.sim.outbox.pending()).toHaveLength(0);
    expect(receiver.requests).toHaveLength(1);
  });

  it('cancels pending deliveries of a deleted subscription', async () => {
    const sub = (await (await subscribe()).json()) as any;
    await createAccount();
    expect((await rt.call('DELETE', `/v1/notification/subscriptions/${sub.data.id}?version=0`)).status).toBe(204);
    expect(await rt.delivery.runDue()).toBe(0);
    expect(rt.sim.outbox.entries.values()[0]).toMatchObject({
      status: 'cancelled',
      status_reason: `subscription ${sub.data.id} was deleted`,
    });
    expect(rt.sim.subscriptions.secretOf(sub.data.id)).toBeUndefined();
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('retention of finished deliveries', () => {
  const delivered = () => rt.sim.outbox.entries.values().filter((e) => e.status === 'delivered');

  it('keeps at most maxFinished finished deliveries, dropping the first finished with its attempts', async () => {
    rt.sim.outbox.retention = { maxAgeMs: 7 * 24 * 3_600_000, maxFinished: 2 };
    await subscribe();
    await createAccount(1);
    await rt.delivery.runDue();
    const [first] = delivered();
    for (const n of [2, 3]) {
      await createAccount(n);
      await rt.delivery.runDue();
    }
    expect(delivered()).toHaveLength(2);
    expect(rt.sim.outbox.entries.get(first!.id)).toBeUndefined();
    expect(rt.sim.outbox.attempts.values().map((a) => a.notification_id)).not.toContain(first!.id);
    expect(rt.sim.outbox.attempts.size).toBe(2);
    expect((await rt.call('GET', `/v1/simulator/deliveries/${first!.id}`)).status).toBe(404);
  });

  it('prunes deliveries finished longer ago than maxAgeMs, never a pending one', async () => {
    rt.sim.outbox.retention = { maxAgeMs: 3_600_000, maxFinished: 10_000 };
    await subscribe();
    await createAccount(1);
    await rt.delivery.runDue();
    receiver.otherwise = 500;
    await createAccount(2); // fails, and stays pending for its retries
    await rt.delivery.runDue();
    rt.wall.advanceMs(3_599_999);
    expect(rt.sim.outbox.prune()).toBe(0);
    rt.wall.advanceMs(1);
    expect(rt.sim.outbox.prune()).toBe(1);
    expect(rt.sim.outbox.entries.values().map((e) => e.status)).toEqual(['pending']);
    expect(rt.sim.outbox.attempts.values().map((a) => a.status)).toEqual(['failed']); // the pending entry's attempt stays
  });

  it('starts counting again when a pruned-for-age delivery is redelivered', async () => {
    rt.sim.outbox.retention = { maxAgeMs: 3_600_000, maxFinished: 10_000 };
    await subscribe();
    await createAccount(1);
    await rt.delivery.runDue();
    const [entry] = delivered();
    rt.wall.advanceMs(3_000_000);
    expect((await rt.call('POST', `/v1/simulator/deliveries/${entry!.id}/redeliver`)).status).toBe(202);
    await rt.delivery.runDue();
    rt.wall.advanceMs(1_000_000); // 1 h after the first delivery, not after the second
    expect(rt.sim.outbox.prune()).toBe(0);
    expect(rt.sim.outbox.entries.get(entry!.id)?.attempts).toBe(2);
  });
});
