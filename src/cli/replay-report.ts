// What a replay tells its reader: the table of divergences by exchange and JSON path, the
// allow-list that excuses some of them, and the run report (reports/conformance-<target>.json, in
// the shape the Gherkin runs write) that a later run's --baseline compares with.
import { readFileSync } from 'node:fs';
import type { Divergence } from './exchange-compare.ts';
import type { ExchangeOutcome } from './replay-engine.ts';

/** A divergence as the run report lists it (the fields of features/support/run-report.ts). */
export interface ReportedDivergence {
  flow: string;
  /** `#12 POST /v1/organisation/accounts`: the exchange. */
  scenario: string;
  /** `recording.jsonl:12`: the line of the recording. */
  location: string;
  /** `$.data.attributes.iban (missing)`: the JSON path and what differs there. */
  case: string;
  expected: unknown;
  actual: unknown;
}

export interface ReplayReport {
  target: string;
  base_url: string;
  /** The second target of a differential run: `expected` is the first's answer, `actual` its. */
  compared_with?: string;
  recording: string;
  finished_at: string;
  totals: { passed: number; failed: number; skipped: number };
  flows: Record<string, { passed: number; failed: number; skipped: number }>;
  scenarios: Array<{
    flow: string;
    name: string;
    location: string;
    outcome: 'passed' | 'failed' | 'skipped';
    reason?: string;
  }>;
  divergences: ReportedDivergence[];
  /** Divergences the allow-list excused: shown, not counted. */
  allowed: ReportedDivergence[];
}

/**
 * An allow-list: one divergence pattern a line, `METHOD PATH JSON-PATH`, as the table prints them,
 * `*` matching anything (`GET /v1/notification/reports/{id} status`, `* * $.data.*.etag`); `#`
 * starts a comment.
 */
export function readAllowList(file: string): RegExp[] {
  return allowListOf(readFileSync(file, 'utf8'), file);
}

/** An allow-list's text (`source` names it in an error), as readAllowList reads a file. */
export function allowListOf(text: string, source: string): RegExp[] {
  return text
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '')
    .map((line) => {
      const words = line.split(/\s+/);
      if (words.length !== 3)
        throw new Error(`${source}: '${line}' must be METHOD PATH JSON-PATH (three words, * for any)`);
      const glob = (w: string) => w.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
      return new RegExp(`^${words.map(glob).join(' ')}$`);
    });
}

/** The words an allow-list line matches: `GET /v1/notification/reports/{id} status`. */
export const divergenceKey = (o: Pick<ExchangeOutcome, 'method' | 'template'>, d: Divergence) =>
  `${o.method} ${o.template} ${d.path}`;

export const show = (v: unknown) => {
  const text = v === undefined ? '(absent)' : JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** The run report of a replay's outcomes. */
export function replayReport(
  outcomes: ExchangeOutcome[],
  allow: RegExp[],
  run: { target: string; base_url: string; compared_with?: string; recording: string },
): ReplayReport {
  const report: ReplayReport = {
    ...run,
    finished_at: new Date().toISOString(),
    totals: { passed: 0, failed: 0, skipped: 0 },
    flows: {},
    scenarios: [],
    divergences: [],
    allowed: [],
  };
  for (const o of outcomes) {
    const scenario = `#${o.seq} ${o.method} ${o.template}`;
    const location = `${run.recording}:${o.seq}`;
    let failed = false;
    for (const d of o.divergences) {
      const entry = {
        flow: o.flow,
        scenario,
        location,
        case: `${d.path} (${d.kind})`,
        expected: d.expected,
        actual: d.actual,
      };
      const allowed = allow.some((a) => a.test(divergenceKey(o, d)));
      (allowed ? report.allowed : report.divergences).push(entry);
      failed ||= !allowed;
    }
    const outcome = o.skipped ? 'skipped' : failed ? 'failed' : 'passed';
    report.totals[outcome]++;
    const flow = (report.flows[o.flow] ??= { passed: 0, failed: 0, skipped: 0 });
    flow[outcome]++;
    report.scenarios.push({
      flow: o.flow,
      name: scenario,
      location,
      outcome,
      ...(o.skipped ? { reason: o.skipped } : {}),
    });
  }
  return report;
}

/** Lays out rows as columns, two spaces apart. */
export function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => `  ${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}`.trimEnd());
}

/** The table a replay prints: one row per divergence, by exchange and JSON path. */
export function divergenceTable(report: ReplayReport): string[] {
  const [left, right] = report.compared_with ? ['first', 'second'] : ['recorded', 'replayed'];
  const what = report.compared_with
    ? `${report.recording} against ${report.base_url} and ${report.compared_with}`
    : `${report.recording} against ${report.base_url}`;
  const lines = [
    `Replay of ${what}: ${report.totals.passed + report.totals.failed} exchanges, ${report.totals.failed} diverging`,
  ];
  const skipped = report.scenarios.filter((s) => s.outcome === 'skipped');
  if (skipped.length > 0)
    lines.push(`Not replayed (${skipped.length}): ${skipped.map((s) => `${s.name}: ${s.reason}`).join('; ')}`);
  const rows = (list: ReportedDivergence[]) => [
    ['exchange', 'path', left, right],
    ...list.map((d) => [d.scenario, d.case, show(d.expected), show(d.actual)]),
  ];
  if (report.divergences.length > 0)
    lines.push('', `Divergences (${report.divergences.length}):`, ...table(rows(report.divergences)));
  if (report.allowed.length > 0)
    lines.push('', `Allowed by the allow-list (${report.allowed.length}):`, ...table(rows(report.allowed)));
  return lines;
}
