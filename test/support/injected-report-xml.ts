// The report parser tests read files as the simulator serves them: a report injected, then its XML
// read with XPath as a bank's parser would.
import { afterAll, beforeAll } from 'vitest';
import { xpathValues } from '../../features/support/report-files.ts';
import { SchemeClock } from '../../src/clock/scheme-clock.ts';
import { HARBOUR, type TestRuntime, testRuntime } from '../../src/harness/test-runtime.ts';

/** Harbour has one originating account: its items keep the order they were given in. */
export const HARBOUR_SUN = '309021';

/**
 * Injects a report for `client` and reads its XML file as the simulator serves it; answers an
 * XPath reader over it, as a bank's parser would read the file.
 */
export async function injectedReportXml(
  rt: TestRuntime,
  client: { organisation_id: string },
  reportType: string,
  rows?: Array<Record<string, unknown>>,
  processingDate = '2026-12-18',
): Promise<(expr: string) => string[]> {
  const { report } = rt.sim.reports.inject({
    organisation_id: client.organisation_id,
    report_type: reportType,
    processing_date: processingDate,
    ...(rows ? { rows } : {}),
  });
  const bytes = (await rt.sim.reports.file(report.id, client.organisation_id, 'xml')).bytes;
  const xml = new TextDecoder().decode(bytes);
  return (expr: string) => xpathValues(xml, expr);
}

/**
 * For a file of parser tests: one runtime for the file (clock frozen the day after the reports'
 * processing date), and `xmlOf(type, rows?, client = Harbour, processingDate?)` over it.
 */
export function reportParsingRuntime(now = '2026-12-22T09:00:00.000Z') {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await testRuntime({ clockState: SchemeClock.frozenAt(now) });
  });
  afterAll(() => rt.close());
  return (
    reportType: string,
    rows?: Array<Record<string, unknown>>,
    client: { organisation_id: string } = HARBOUR,
    processingDate = '2026-12-18',
  ) => injectedReportXml(rt, client, reportType, rows, processingDate);
}
