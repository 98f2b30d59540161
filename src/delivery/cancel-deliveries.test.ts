import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAccount, subscribeToAccounts } from '../../test/support/testing.ts';
import { type TestRuntime, testRuntime } from '../harness/test-runtime.ts';

// A subscription that ends takes its pending deliveries with it in one unit, written by one commit
// however many there are (not a commit per delivery).

const N = 40;
let rt: TestRuntime;
let writes: number;
beforeEach(async () => {
  rt = await testRuntime();
  const store = rt.sim.store;
  const commit = store.commit.bind(store);
  // A commit with changes to write is a write; one with none (a read, a shared group) is not.
  store.commit = () => {
    if (store.dirty) writes++;
    return commit();
  };
});
afterEach(() => rt.close());

async function pendingDeliveries(): Promise<string> {
  const sub = await subscribeToAccounts(rt, [['http', 'http://127.0.0.1:1/hook']]);
  for (let i = 0; i < N; i++) await openAccount(rt);
  expect(rt.sim.outbox.pending()).toHaveLength(N);
  writes = 0;
  return sub;
}
const statuses = () => new Set(rt.sim.outbox.entries.values().map((e) => e.status));

describe('a subscription that ends', () => {
  it('deactivated: cancels its pending deliveries in the one commit of the change', async () => {
    const sub = await pendingDeliveries();
    const res = await rt.call('PATCH', `/v1/notification/subscriptions/${sub}`, {
      data: { version: 0, attributes: { deactivated: true } },
    });
    expect(res.status).toBe(200);
    expect(writes).toBe(1);
    expect(statuses()).toEqual(new Set(['cancelled']));
    expect(rt.sim.outbox.entries.values()[0]!.status_reason).toBe(`subscription ${sub} is deactivated`);
  });

  it('deleted: likewise', async () => {
    const sub = await pendingDeliveries();
    const res = await rt.call('DELETE', `/v1/notification/subscriptions/${sub}?version=0`);
    expect(res.status).toBe(204);
    expect(writes).toBe(1);
    expect(statuses()).toEqual(new Set(['cancelled']));
  });

  it('met by the delivery worker still pending (an older data file): all cancelled in one commit', async () => {
    const sub = await pendingDeliveries();
    // As an older version left it: the subscription deactivated, its deliveries still pending.
    const pending = rt.sim.outbox.pending();
    rt.sim.subscriptions.deactivate(sub);
    for (const e of pending) {
      rt.sim.outbox.entries.put(e);
      rt.sim.outbox.requeue(e.id);
    }
    await rt.sim.store.commit();
    expect(rt.sim.outbox.pending()).toHaveLength(N);
    rt.wall.advanceMs(60_000);
    writes = 0;
    expect(await rt.delivery.runDue()).toBe(0);
    expect(writes).toBe(1);
    expect(statuses()).toEqual(new Set(['cancelled']));
  });
});
