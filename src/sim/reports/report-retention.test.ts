import { describe, expect, it } from 'vitest';
import { advance, createRuntime, frozenAt } from '../../index.ts';

const DAY = 86_400_000;

async function reportsAfter(retention: number | undefined) {
  const runtime = await createRuntime({
    memory: true,
    clock: frozenAt('2026-12-21T09:00:00Z'),
    seedAccounts: false,
    ...(retention !== undefined ? { reportRetentionDays: retention } : {}),
  });
  try {
    await advance(runtime, { working_days: 60 });
    const org = runtime.sim.organisations.list[0]!.id;
    const reports = runtime.sim.reports.list(org);
    const admissions = runtime.sim.reports.admissions.listFor(org);
    return { now: runtime.sim.clock.now().getTime(), reports, admissions };
  } finally {
    await runtime.close();
  }
}

describe('report retention', () => {
  it('drops reports (and their admissions) older than the retention as the daily ones arrive', async () => {
    const kept = await reportsAfter(30);
    const all = await reportsAfter(0);
    expect(kept.reports.length).toBeGreaterThan(0);
    expect(all.reports.length).toBeGreaterThan(kept.reports.length * 1.5);
    // Only the last 30 days (plus at most the day before the last daily run) remain.
    for (const r of kept.reports) expect(kept.now - Date.parse(r.created_on)).toBeLessThanOrEqual(32 * DAY);
    expect(kept.admissions).toHaveLength(kept.reports.length);
    const oldest = Math.min(...all.reports.map((r) => Date.parse(r.created_on)));
    expect(all.now - oldest).toBeGreaterThan(60 * DAY);
  }, 60_000);
});
