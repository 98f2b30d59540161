// The run report (run-report.ts) when the run finishes: as JSON to this formatter's output, which
// cucumber.mjs names per profile (reports/conformance-<target>.json) so CI can keep the history of
// every run against a target, and as the table by flow that ends the console's output. The table
// goes to the process's stdout itself: cucumber lets one formatter own stdout (a `--format summary`
// replaces the console formatter), and the run must end with the table whichever one does.
import { Formatter, type IFormatterOptions } from '@cucumber/cucumber';
import { flowLine, runReportOf, tableOf } from './run-report.ts';
import { readSettings } from './settings.ts';

/** The target a profile runs against (cucumber.mjs formatOptions.conformance.target), and its URL. */
export function reportTarget(options: Pick<IFormatterOptions, 'parsedArgvOptions'>): {
  name: string;
  baseUrl?: string;
} {
  const name = String(
    (options.parsedArgvOptions.conformance as { target?: string } | undefined)?.target ?? 'inprocess',
  );
  const settings = readSettings();
  const baseUrl =
    name === 'staging' ? settings.CONFORMANCE_BASE_URL : name === 'sim' ? settings.SIM_BASE_URL : undefined;
  return { name, ...(baseUrl ? { baseUrl } : {}) };
}

export default class RunReportFormatter extends Formatter {
  static override readonly documentation =
    'The run by flow and the divergences found: JSON to its output, the table to stdout';

  constructor(options: IFormatterOptions) {
    super(options);
    const target = reportTarget(options);
    options.eventBroadcaster.on('envelope', (envelope: { testRunFinished?: unknown }) => {
      if (!envelope.testRunFinished) return;
      const report = runReportOf(this.eventDataCollector.getTestCaseAttempts(), target.name, target.baseUrl);
      this.log(`${JSON.stringify(report, null, 2)}\n`);
      const { passed, failed, skipped } = report.totals;
      process.stdout.write(
        `\n${tableOf(report)}\nconformance: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\nconformance ${flowLine(report)}\n`,
      );
    });
  }
}
