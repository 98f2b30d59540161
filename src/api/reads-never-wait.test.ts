import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestRuntime, testRuntime } from '../harness/test-runtime.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

describe('a request that changes nothing', () => {
  it('answers without waiting for a write it has no part in (/health, a read)', async () => {
    const store = rt.sim.store;
    const commit = store.commit.bind(store);
    // Another request's change is held in a write that does not end.
    let held = 0;
    store.commit = () => {
      held++;
      return new Promise<void>(() => undefined);
    };
    try {
      store.setMeta('another-request', 1);
      expect(store.dirty).toBe(true);
      const before = store.changes;
      expect((await rt.app.request('/health')).status).toBe(200);
      expect((await rt.call('GET', '/v1/simulator/clock')).status).toBe(200);
      expect(held).toBe(0);
      expect(store.changes).toBe(before);
    } finally {
      store.commit = commit;
    }
  });

  it('a request that changed the store still waits until its change is durable', async () => {
    const before = rt.sim.store.changes;
    let committed = 0;
    const commit = rt.sim.store.commit.bind(rt.sim.store);
    rt.sim.store.commit = () => {
      committed++;
      return commit();
    };
    const res = await rt.call('POST', '/v1/simulator/reports', { report_type: 'BACS_ARUDD' });
    expect(res.status).toBe(201);
    expect(rt.sim.store.changes).toBeGreaterThan(before);
    expect(committed).toBeGreaterThanOrEqual(1);
  });
});
