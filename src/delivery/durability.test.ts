import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestReceiver } from '../../test/support/webhook-receiver.ts';
import { systemClock } from '../clock/clock.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { FAST_RETRY_SCHEDULE } from '../sim/notifications/retry-schedule.ts';

// Nothing is lost: 100 deliveries pending against a receiver that is down survive a stop and a
// restart of the simulator on the same data file, and are all delivered once the receiver is up.

let dir: string;
let receiver: TestReceiver;
const open: TestRuntime[] = [];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scheme-sim-outbox-'));
  receiver = new TestReceiver();
  await receiver.up(); // to learn a free port ...
  await receiver.down(); // ... and be down on it
});
afterEach(async () => {
  for (const rt of open.splice(0)) await rt.close();
  await receiver.down();
  rmSync(dir, { recursive: true, force: true });
});

async function start(file: string): Promise<TestRuntime> {
  const rt = await testRuntime({
    memory: false,
    data: file,
    wall: systemClock,
    retrySchedule: FAST_RETRY_SCHEDULE,
    delivery: { timeoutMs: 1000 },
  });
  open.push(rt);
  rt.start();
  return rt;
}

describe('outbox durability', () => {
  it('delivers all 100 pending notifications after a restart', async () => {
    const file = join(dir, 'sim.json');
    const first = await start(file);
    const sub = await first.call('POST', '/v1/notification/subscriptions', {
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
    expect(sub.status).toBe(201);
    for (let i = 0; i < 100; i++) {
      const res = await first.call('POST', '/v1/organisation/accounts', {
        data: {
          id: crypto.randomUUID(),
          organisation_id: NORTHWIND.organisation_id,
          type: 'accounts',
          attributes: {
            country: 'GB',
            bank_id: '400300',
            bank_id_code: 'GBDSC',
            bic: 'NWBKGB22',
            account_number: String(10_000_000 + i),
            name: ['Holder'],
          },
        },
      });
      expect(res.status).toBe(201);
    }
    await TestReceiver.until(
      () => new Set(first.sim.outbox.attempts.values().map((a) => a.notification_id)).size === 100,
      'a failed attempt for each of the 100',
    );
    expect(first.sim.outbox.pending()).toHaveLength(100);
    await first.close();
    open.splice(open.indexOf(first), 1);

    const second = await start(file);
    expect(second.sim.outbox.pending()).toHaveLength(100);
    await receiver.up();
    await TestReceiver.until(() => second.sim.outbox.pending().length === 0, 'the outbox to drain', 20_000);
    const ids = new Set(receiver.delivered.map((r) => JSON.parse(r.body).id as string));
    expect(ids.size).toBe(100);
    expect(second.sim.outbox.entries.values().every((e) => e.status === 'delivered')).toBe(true);
    expect(second.sim.outbox.attempts.values().filter((a) => a.status === 'succeeded')).toHaveLength(100);
    await second.close();
    open.splice(open.indexOf(second), 1);

    // What the second run recorded is on disk too.
    const third = await testRuntime({ memory: false, data: file });
    open.push(third);
    expect(third.sim.outbox.entries.values().filter((e) => e.status === 'delivered')).toHaveLength(100);
  });
});
