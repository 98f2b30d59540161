// The tests of the harness's staging profile need a simulator that looks like a staging environment,
// where the last days' reports have already arrived.
import { SchemeClock } from '../../src/clock/scheme-clock.ts';
import { HARBOUR, NORTHWIND } from '../../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../../src/node/server.ts';
import { createRuntime } from '../../src/runtime.ts';

/** The report types the catalogue has arrive on an event (fixtures/reports/catalogue.json `on_event`). */
const ON_EVENT_REPORTS = ['BACS_AUDDIS_REJECTION', 'BACS_DDIC_CLAIM_SUBMISSION'];
/** The scheme date of the simulator used as staging: the reports' window counts back from it (CONFORMANCE_TODAY). */
export const STAGING_TODAY = '2026-12-23';

/**
 * A simulator used strictly as staging: in memory, its clock two working days past the scenarios'
 * start so the days' reports have arrived, as on a staging environment, with the report types that
 * arrive on an event added for Northwind and Harbour (features/reports_on_any_target.feature skips
 * a type the target does not list).
 */
export async function stagingSimulator(
  options: { copStrict?: boolean; clientsFile?: string } = {},
): Promise<RunningServer> {
  const runtime = await createRuntime({
    memory: true,
    clock: SchemeClock.frozenAt('2026-12-21T09:00:00Z'),
    ...options,
  });
  runtime.sim.scheduler.advanceTo(new Date(`${STAGING_TODAY}T09:00:00Z`));
  for (const organisation_id of [NORTHWIND.organisation_id, HARBOUR.organisation_id])
    for (const report_type of ON_EVENT_REPORTS)
      runtime.sim.reports.arrive({ organisation_id, report_type, processing_date: '2026-12-22' });
  return listen(runtime, 0);
}
