// A backlog far larger than a subscription's attempts in flight (a long advance's notifications)
// is taken from the outbox's due heap about once per entry, not once per look at the outbox.
import { afterEach, expect, it } from 'vitest';
import { TestReceiver } from '../../test/support/webhook-receiver.ts';
import { systemClock } from '../clock/clock.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { FAST_RETRY_SCHEDULE } from '../sim/notifications/retry-schedule.ts';

const BACKLOG = 300;
let rt: TestRuntime | undefined;
let receiver: TestReceiver | undefined;
afterEach(async () => {
  await rt?.close();
  await receiver?.down();
});

it('takes each entry of a backlog off the due heap about once, however many attempts finish', async () => {
  receiver = new TestReceiver();
  await receiver.up();
  rt = await testRuntime({
    wall: systemClock,
    retrySchedule: FAST_RETRY_SCHEDULE,
    delivery: { timeoutMs: 5000, concurrency: 16, perSubscription: 2 },
  });
  const res = await rt.call('POST', '/v1/notification/subscriptions', {
    data: {
      id: crypto.randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
      type: 'subscriptions',
      attributes: {
        event_type: 'created',
        record_type: 'accounts',
        callback_transport: 'http',
        callback_uri: receiver.url,
      },
    },
  });
  expect(res.status).toBe(201);
  // The backlog is made before the worker runs, as an advance's slices make theirs.
  for (let n = 0; n < BACKLOG; n++) {
    const created = await rt.call('POST', '/v1/organisation/accounts', {
      data: {
        id: crypto.randomUUID(),
        organisation_id: NORTHWIND.organisation_id,
        type: 'accounts',
        attributes: {
          country: 'GB',
          ...NORTHWIND.bank,
          bank_id_code: 'GBDSC',
          account_number: String(41430000 + n),
          name: ['Sam Holder'],
        },
      },
    });
    expect(created.status).toBe(201);
  }
  const outbox = rt.sim.outbox;
  let taken = 0;
  const takeDue = outbox.takeDue.bind(outbox);
  outbox.takeDue = (nowMs: number) => {
    const e = takeDue(nowMs);
    if (e) taken++;
    return e;
  };
  rt.start();
  await TestReceiver.until(() => receiver!.delivered.length === BACKLOG, 'the whole backlog delivered', 60_000);
  // The receiver counts a delivery when its request arrives; the worker takes the entry out of the
  // outbox once it has read the answer, a moment later (CI once found the last one still there).
  // An entry that is never taken out still fails below, after the wait.
  await TestReceiver.until(() => outbox.pending().length === 0, 'the last answers read', 5_000).catch(() => {});
  expect(outbox.pending()).toHaveLength(0);
  // Handing the entries passed over back to the heap at every look took 32,483 here.
  expect(taken).toBeLessThanOrEqual(2 * BACKLOG);
});
