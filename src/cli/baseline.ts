// Drift over time: a run's report (reports/conformance-<target>.json, from the Gherkin runs or a
// replay) compared with an earlier one, so a nightly job fails on the day a target changes and
// not on every day after: what diverges now and did not then is new, and only that fails.
import { readFileSync } from 'node:fs';
import { CliError } from './cli-errors.ts';

/** What a baseline comparison reads of a run report (features/support/run-report.ts, replay-report.ts). */
interface ReportLike {
  finished_at?: string;
  scenarios?: Array<{ flow: string; name: string; outcome: string }>;
  divergences?: Array<{ flow: string; scenario: string; case: string }>;
}

export interface BaselineComparison {
  new: string[];
  fixed: string[];
  still: string[];
}

/**
 * A run's divergences, each as one line naming its flow, scenario and case; a scenario that failed
 * without recording a divergence counts as one (`… (failed)`), so a failure is never lost.
 */
export function divergencesOf(report: ReportLike): string[] {
  const lines = new Set((report.divergences ?? []).map((d) => `${d.flow}: ${d.scenario}: ${d.case}`));
  const diverged = new Set((report.divergences ?? []).map((d) => `${d.flow}\n${d.scenario}`));
  for (const s of report.scenarios ?? [])
    if (s.outcome === 'failed' && !diverged.has(`${s.flow}\n${s.name}`)) lines.add(`${s.flow}: ${s.name} (failed)`);
  return [...lines].sort();
}

export function compareWithBaseline(current: ReportLike, baseline: ReportLike): BaselineComparison {
  const [now, then] = [divergencesOf(current), new Set(divergencesOf(baseline))];
  return {
    new: now.filter((d) => !then.has(d)),
    fixed: [...then].filter((d) => !now.includes(d)),
    still: now.filter((d) => then.has(d)),
  };
}

export function readReport(file: string, what: string): ReportLike {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return JSON.parse(text) as ReportLike;
  } catch (err) {
    throw new CliError(`${what} ${file} is not a run report: ${(err as Error).message}`);
  }
}

/** The comparison as printed: counts, then each list. */
export function baselineLines(comparison: BaselineComparison, file: string, baseline: ReportLike): string[] {
  const lines = [
    `Against the baseline ${file}${baseline.finished_at ? ` (run ${baseline.finished_at})` : ''}: ${comparison.new.length} new, ${comparison.fixed.length} fixed, ${comparison.still.length} still diverging`,
  ];
  const list = (title: string, items: string[]) => {
    if (items.length > 0) lines.push(`${title} (${items.length}):`, ...items.map((i) => `  ${i}`));
  };
  list('New', comparison.new);
  list('Fixed', comparison.fixed);
  list('Still diverging', comparison.still);
  return lines;
}

/**
 * The exit status of a run compared with a baseline: 1 when anything new diverges, else 0; a run
 * that could not report (a preflight stop, exit 2, or no report written) keeps its own status.
 */
export function gateOnBaseline(
  code: number,
  reportFile: string,
  baselineFile: string,
  out: (line: string) => void = console.log,
): number {
  if (code === 2) return code;
  let current: ReportLike;
  try {
    current = JSON.parse(readFileSync(reportFile, 'utf8')) as ReportLike;
  } catch {
    out(`scheme-sim: no run report at ${reportFile} to compare with the baseline`);
    return code === 0 ? 1 : code;
  }
  const baseline = readReport(baselineFile, '--baseline');
  const comparison = compareWithBaseline(current, baseline);
  for (const line of ['', ...baselineLines(comparison, baselineFile, baseline)]) out(line);
  return comparison.new.length > 0 ? 1 : 0;
}
