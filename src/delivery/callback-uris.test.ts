import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAccount, subscribeToAccounts } from '../../test/support/testing.ts';
import { TestReceiver } from '../../test/support/webhook-receiver.ts';
import { systemClock } from '../clock/clock.ts';
import { type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { FAST_RETRY_SCHEDULE } from '../sim/notifications/retry-schedule.ts';

// A subscription with several callback_uris: each receiver gets the notification, and one that
// fails is retried on its own while the other is done.

let rt: TestRuntime;
const receivers = [new TestReceiver(), new TestReceiver()];
beforeEach(async () => {
  for (const r of receivers) {
    r.requests.length = 0;
    r.script.length = 0;
    await r.up();
  }
  rt = await testRuntime({ wall: systemClock, retrySchedule: FAST_RETRY_SCHEDULE, delivery: { timeoutMs: 5000 } });
  rt.start();
});
afterEach(async () => {
  await rt.close();
  for (const r of receivers) await r.down();
});

describe('delivery to each of callback_uris', () => {
  it('sends the same notification to every callback; a failing one is retried alone', async () => {
    receivers[1]!.script.push(500, 500);
    await subscribeToAccounts(
      rt,
      receivers.map((r) => ['http', r.url]),
    );
    await openAccount(rt);
    await TestReceiver.until(() => receivers.every((r) => r.delivered.length === 1), 'the deliveries');
    expect(receivers[0]!.requests).toHaveLength(1);
    expect(receivers[1]!.requests).toHaveLength(3);
    const [a, b] = receivers.map((r) => JSON.parse(r.delivered[0]!.body) as { id: string });
    expect(a!.id).toBe(b!.id);
  });
});
