// The report of a conformance run: by flow, the scenarios passed, failed and skipped (each skipped
// one with its reason), and the divergences the steps recorded (divergence.ts). The console prints
// it as a table at the end of the run (console-formatter.ts); run-report-formatter.ts writes it as
// JSON under reports/ so CI can keep the history.
import { formatterHelpers, type SummaryFormatter } from '@cucumber/cucumber';
import { DIVERGENCE_MEDIA_TYPE, type Divergence } from './divergence.ts';
import { FlowTally, flowOf } from './tally.ts';

export type Attempt = Parameters<SummaryFormatter['logIssues']>[0]['issues'][number];
type Attachment = Attempt['stepAttachments'][string][number];

export type Outcome = 'passed' | 'failed' | 'skipped';

export interface ScenarioOutcome {
  flow: string;
  name: string;
  /** `features/claims.feature:12` */
  location: string;
  outcome: Outcome;
  /** Why it was skipped, or the first line of what failed. */
  reason?: string;
}

export interface FoundDivergence extends Divergence {
  flow: string;
  scenario: string;
  location: string;
}

export interface RunReport {
  target: string;
  base_url?: string;
  finished_at: string;
  totals: Record<Outcome, number>;
  flows: Record<string, Record<Outcome, number>>;
  scenarios: ScenarioOutcome[];
  divergences: FoundDivergence[];
}

/** The text of an attachment (cucumber keeps a string as it is, bytes as base64). */
export function textOf(a: Attachment): string {
  return a.contentEncoding === 'BASE64' ? Buffer.from(a.body, 'base64').toString('utf8') : a.body;
}

/** `features/claims_journey.feature:12`: where a scenario is. */
export function locationOf(attempt: Attempt): string {
  const lines = formatterHelpers.GherkinDocumentParser.getGherkinScenarioLocationMap(attempt.gherkinDocument);
  const line = lines[attempt.pickle.astNodeIds[0] ?? '']?.line;
  return `${attempt.pickle.uri}${line ? `:${line}` : ''}`;
}

/** Why a skipped scenario was skipped: what the hook or first step that skipped it said, or that step. */
export function skipReasonOf(attempt: Attempt): string {
  for (const step of attempt.testCase.testSteps) {
    if (attempt.stepResults[step.id]?.status !== 'SKIPPED') continue;
    if (!step.pickleStepId) {
      // A Before hook that skipped the scenario, saying why (this.log).
      const logged = (attempt.stepAttachments[step.id] ?? []).filter(
        (a) => a.mediaType === 'text/x.cucumber.log+plain',
      );
      if (logged.length > 0) return logged.map(textOf).join('; ');
      continue;
    }
    // What the step attached or logged (this.log: cucumber's log media type).
    // A step that logged why it skips is read for that alone, not for the exchanges it attached.
    const attached = attempt.stepAttachments[step.id] ?? [];
    const logged = attached.filter((a) => a.mediaType === 'text/x.cucumber.log+plain');
    const said = (logged.length > 0 ? logged : attached.filter((a) => a.mediaType === 'text/plain')).map(textOf);
    if (said.length > 0) return said.join('; ');
    const text = attempt.pickle.steps.find((s) => s.id === step.pickleStepId)?.text;
    return `the step "${text}" was skipped`;
  }
  return 'skipped';
}

function outcomeOf(attempt: Attempt): Outcome {
  const status = attempt.worstTestStepResult.status;
  return status === 'PASSED' ? 'passed' : status === 'SKIPPED' ? 'skipped' : 'failed';
}

/** The first line of a failure: the failed step's message, or its status (undefined, ambiguous…). */
function failureOf(attempt: Attempt): string {
  const result = attempt.worstTestStepResult;
  const first = (result.message ?? '').split('\n').find((l) => l.trim() !== '');
  return (first ?? result.status.toLowerCase()).trim().slice(0, 500);
}

function divergencesOf(attempt: Attempt): Divergence[] {
  const out: Divergence[] = [];
  for (const step of attempt.testCase.testSteps)
    for (const a of attempt.stepAttachments[step.id] ?? [])
      if (a.mediaType === DIVERGENCE_MEDIA_TYPE) out.push(JSON.parse(textOf(a)) as Divergence);
  return out;
}

/** The report of the attempts that were final (a retried attempt counts once, by its last try). */
export function runReportOf(
  attempts: readonly Attempt[],
  target: string,
  baseUrl?: string,
  finishedAt = new Date(),
): RunReport {
  const report: RunReport = {
    target,
    ...(baseUrl ? { base_url: baseUrl } : {}),
    finished_at: finishedAt.toISOString(),
    totals: { passed: 0, failed: 0, skipped: 0 },
    flows: {},
    scenarios: [],
    divergences: [],
  };
  for (const attempt of attempts) {
    if (attempt.willBeRetried) continue;
    const flow = flowOf(attempt.pickle.tags.map((t) => t.name));
    const outcome = outcomeOf(attempt);
    const scenario: ScenarioOutcome = { flow, name: attempt.pickle.name, location: locationOf(attempt), outcome };
    if (outcome === 'skipped') scenario.reason = skipReasonOf(attempt);
    if (outcome === 'failed') scenario.reason = failureOf(attempt);
    report.scenarios.push(scenario);
    report.totals[outcome]++;
    report.flows[flow] ??= { passed: 0, failed: 0, skipped: 0 };
    report.flows[flow][outcome]++;
    for (const d of divergencesOf(attempt))
      report.divergences.push({ flow, scenario: scenario.name, location: scenario.location, ...d });
  }
  report.flows = Object.fromEntries(Object.entries(report.flows).sort(([a], [b]) => a.localeCompare(b)));
  return report;
}

/** The one-line tally `conformance by flow: accounts 120/120, claims 2/3 (1 skipped)`. */
export function flowLine(report: RunReport): string {
  const tally = new FlowTally();
  for (const s of report.scenarios) tally.add([`@${s.flow}`], s.outcome);
  return tally.line();
}

/** The table printed at the end of a run: by flow, then the skipped with reasons, then the divergences. */
export function tableOf(report: RunReport): string {
  const rows = [
    ['flow', 'passed', 'failed', 'skipped'],
    ...Object.entries(report.flows).map(([flow, t]) => [flow, String(t.passed), String(t.failed), String(t.skipped)]),
    ['total', String(report.totals.passed), String(report.totals.failed), String(report.totals.skipped)],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    `  ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`;
  const out = [`Conformance against ${report.target}, by flow:`, '', ...rows.map(line), ''];
  const skipped = report.scenarios.filter((s) => s.outcome === 'skipped');
  if (skipped.length > 0) {
    out.push('Skipped, with reasons:');
    for (const s of skipped) out.push(`  ${s.flow}: ${s.name} # ${s.location}`, `    ${s.reason}`);
    out.push('');
  }
  if (report.divergences.length === 0) out.push('Divergences: none');
  else {
    out.push(`Divergences (${report.divergences.length}):`);
    report.divergences.forEach((d, i) => {
      out.push(
        `  ${i + 1}) ${d.flow}: ${d.case} # ${d.location}`,
        `     expected ${JSON.stringify(d.expected)}`,
        `     actual   ${JSON.stringify(d.actual)}`,
      );
    });
  }
  return `${out.join('\n')}\n`;
}
