import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestReceiver } from '../../test/support/webhook-receiver.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';

// FIFO queue subscriptions are served one notification at a time, oldest first (delivery-worker's
// #inTurn). Driven by hand: a manual wall clock and runDue(). The queue is unreachable (port 1),
// so its head fails and stays pending for its retry.

const FIFO_QUEUE = 'http://127.0.0.1:1/000000000000/scheme-events.fifo';
const SCHEDULE = { delaysMs: [0, 60_000], repeatMs: 60_000, giveUpAfterMs: 3_600_000, jitter: 0 };

let rt: TestRuntime;
let receiver: TestReceiver;
let dir: string;
beforeEach(async () => {
  receiver = new TestReceiver();
  await receiver.up();
  dir = mkdtempSync(join(tmpdir(), 'scheme-sim-fifo-'));
});
afterEach(async () => {
  await rt.close();
  await receiver.down();
  rmSync(dir, { recursive: true, force: true });
});

async function subscribe(attributes: Record<string, unknown>, client = NORTHWIND): Promise<string> {
  const id = crypto.randomUUID();
  const res = await rt.call(
    'POST',
    '/v1/notification/subscriptions',
    {
      data: {
        id,
        organisation_id: client.organisation_id,
        type: 'subscriptions',
        attributes: { event_type: 'created', record_type: 'accounts', ...attributes },
      },
    },
    { client },
  );
  expect(res.status).toBe(201);
  return id;
}
async function createAccount(n: number, client = NORTHWIND): Promise<void> {
  const res = await rt.call(
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
          account_number: String(41420000 + n),
          name: ['Sam Holder'],
        },
      },
    },
    { client },
  );
  expect(res.status).toBe(201);
}

describe('FIFO queue subscriptions', () => {
  it('park a long backlog behind a failed head without holding back other subscriptions', async () => {
    rt = await testRuntime({ retrySchedule: SCHEDULE, delivery: { timeoutMs: 1000 } });
    const fifo = await subscribe({ callback_transport: 'queue', callback_uri: FIFO_QUEUE });
    await subscribe({ callback_transport: 'http', callback_uri: receiver.url }, HARBOUR);
    await createAccount(0);
    await rt.delivery.runDue(); // the head fails and waits 60 s for its retry
    for (let n = 1; n <= 1100; n++) await createAccount(n); // more than one look of the worker passes over
    rt.wall.advanceMs(1);
    await createAccount(5000, HARBOUR); // due after the whole backlog
    rt.wall.advanceMs(1);
    await rt.delivery.runDue();

    const entries = rt.sim.outbox.entries.values();
    expect(entries.filter((e) => e.organisation_id === HARBOUR.organisation_id).map((e) => e.status)).toEqual([
      'delivered',
    ]);
    const queued = entries.filter((e) => e.subscription_id === fifo);
    expect(queued.filter((e) => e.attempts > 0)).toHaveLength(1); // only the head was tried
    expect(queued.every((e) => e.status === 'pending')).toBe(true);
  });

  it('keep the order after a redelivery across a restart: a redelivered one goes behind those pending', async () => {
    const data = join(dir, 'sim.json');
    rt = await testRuntime({ memory: false, data, retrySchedule: SCHEDULE, redeliveryIntervalMs: 0 });
    const fifo = await subscribe({ callback_transport: 'queue', callback_uri: FIFO_QUEUE });
    const sub = rt.sim.subscriptions.find(fifo)!;
    await createAccount(1);
    const [a] = rt.sim.outbox.pending();
    rt.sim.outbox.recordAttempt(a!.id, sub, { ok: true, response_code: 200 }, rt.wall.now().getTime());
    await createAccount(2);
    const [b] = rt.sim.outbox.pending();
    rt.sim.outbox.recordAttempt(
      b!.id,
      sub,
      { ok: false, response_code: 500, error_category: 'queue_error', error_message: 'down' },
      rt.wall.now().getTime(),
    );
    rt.sim.outbox.redeliver(a!.id, NORTHWIND.organisation_id);
    expect(rt.sim.outbox.firstPending(fifo)?.id).toBe(b!.id);
    await rt.close();

    rt = await testRuntime({ memory: false, data, retrySchedule: SCHEDULE });
    expect(rt.sim.outbox.firstPending(fifo)?.id).toBe(b!.id);
    expect(rt.sim.outbox.pending().map((e) => e.id)).toEqual([b!.id, a!.id]);
  });
});
