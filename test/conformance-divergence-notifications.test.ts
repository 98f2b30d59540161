import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../features/support/run-report.ts';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import { createRuntime } from '../src/runtime.ts';
import { runFeatureAsStaging } from './support/feature-as-staging.ts';

// Notifications on any target (features/notifications_on_any_target.feature) against a simulator
// used as staging whose notifications diverge: an account's "updated" notification carries the
// record without the alternative_names the update set (its outbox entry edited in this test's
// process, where the simulator runs, before it is stored and signed). The notification still
// arrives, signed, with the right envelope; only the record differs from what a GET answers. The
// run must fail, naming that case with the expected and the actual record; every other
// notification scenario still passes.

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'divergent-notifications-'));
  const runtime = await createRuntime({ memory: true, clock: SchemeClock.frozenAt('2026-12-21T09:00:00Z') });
  const outbox = runtime.sim.outbox;
  const enqueue = outbox.enqueue.bind(outbox);
  outbox.enqueue = (notification, ...rest) => {
    if (notification.event_type === 'updated' && notification.record_type === 'accounts') {
      const record = (notification.data as { data: { attributes: Record<string, unknown> } }).data;
      delete record.attributes.alternative_names;
    }
    return enqueue(notification, ...rest);
  };
  server = await listen(runtime, 0);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('notifications on a target whose updated notification diverges from the record', () => {
  it('fails the run, the divergence table naming the case, expected and actual', async () => {
    // From a folder of its own, so its reports/conformance-staging.json is this run's alone.
    const run = await runFeatureAsStaging(dir, server.url, 'notifications_on_any_target.feature');
    expect(run.code, run.out.slice(-3000)).toBe(1);
    expect(run.out).toMatch(/conformance: \d+ passed, 1 failed\n/);
    expect(run.out).toMatch(
      /Divergences \(1\):\n {2}1\) notifications: updated notification of accounts: the record # \S*features\/notifications_on_any_target\.feature:\d+\n/,
    );
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'conformance-staging.json'), 'utf8')) as RunReport;
    expect(report.target).toBe('staging');
    expect(report.divergences).toMatchObject([
      {
        flow: 'notifications',
        scenario: "An updated account's notification carries the record as updated",
        case: 'updated notification of accounts: the record',
        expected: { type: 'accounts', version: 1, attributes: { alternative_names: ['Notified Holder'] } },
      },
    ]);
    const actual = report.divergences[0]?.actual as { version?: number; attributes?: Record<string, unknown> };
    expect(actual.version).toBe(1);
    expect(actual.attributes).not.toHaveProperty('alternative_names');
  }, 240_000);
});
