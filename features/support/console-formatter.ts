// The console's report of a conformance run (cucumber.mjs names it as the first format): progress
// dots, then each skipped scenario with why it was skipped (a journey waiting for its day), then
// each failure with its HTTP exchange once: in the failed step's message when the step put it
// there, else the scenario's last exchange. The HTML report keeps every exchange of every step.
import { formatterHelpers, ProgressFormatter, type SummaryFormatter } from '@cucumber/cucumber';

type Attempt = Parameters<SummaryFormatter['logIssues']>[0]['issues'][number];
type Attachment = Attempt['stepAttachments'][string][number];

/** The text of a text/plain attachment (cucumber keeps a string as it is, bytes as base64). */
function textOf(a: Attachment): string {
  return a.contentEncoding === 'BASE64' ? Buffer.from(a.body, 'base64').toString('utf8') : a.body;
}

/** The exchanges a scenario attached (world.ts names each `METHOD /path`), oldest first. */
function exchangesOf(attempt: Attempt): string[] {
  const out: string[] = [];
  for (const step of attempt.testCase.testSteps)
    for (const a of attempt.stepAttachments[step.id] ?? [])
      if (a.mediaType === 'text/plain' && /^[A-Z]+ \//.test(a.fileName ?? '')) out.push(textOf(a));
  return out;
}

/** `features/claims_journey.feature:12`: where a scenario is. */
function locationOf(attempt: Attempt): string {
  const lines = formatterHelpers.GherkinDocumentParser.getGherkinScenarioLocationMap(attempt.gherkinDocument);
  const line = lines[attempt.pickle.astNodeIds[0] ?? '']?.line;
  return `${attempt.pickle.uri}${line ? `:${line}` : ''}`;
}

/** Why a skipped scenario was skipped: what its first skipped step attached, or that step. */
export function skipReasonOf(attempt: Attempt): string {
  for (const step of attempt.testCase.testSteps) {
    if (attempt.stepResults[step.id]?.status !== 'SKIPPED' || !step.pickleStepId) continue;
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

const indent = (text: string, by: string) =>
  text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');

export default class ConsoleFormatter extends ProgressFormatter {
  static override readonly documentation =
    'Progress, skipped scenarios with their reason, failures with their exchange once';

  override logSummary(testRunDuration: Parameters<SummaryFormatter['logSummary']>[0]): void {
    const skipped = this.eventDataCollector
      .getTestCaseAttempts()
      .filter((a) => !a.willBeRetried && a.worstTestStepResult.status === 'SKIPPED');
    if (skipped.length > 0) {
      this.log('Skipped:\n\n');
      skipped.forEach((a, i) => {
        this.log(`${i + 1}) ${a.pickle.name} # ${locationOf(a)}\n   ${skipReasonOf(a)}\n\n`);
      });
    }
    super.logSummary(testRunDuration);
  }

  override logIssues({ issues, title }: Parameters<SummaryFormatter['logIssues']>[0]): void {
    this.log(`${title}:\n\n`);
    issues.forEach((attempt, index) => {
      const number = index + 1;
      let text = formatterHelpers.formatIssue({
        colorFns: this.colorFns,
        number,
        snippetBuilder: this.snippetBuilder,
        supportCodeLibrary: this.supportCodeLibrary,
        testCaseAttempt: attempt,
        printAttachments: false,
      });
      const exchange = exchangesOf(attempt).pop();
      // A step's message that carries the exchange already (world.exchange) is not repeated.
      if (exchange && !text.includes('--- exchange ---'))
        text = `${text.trimEnd()}\n${indent(`--- last exchange ---\n${exchange}`, ' '.repeat(`${number}) `.length + 4))}\n\n`;
      this.log(text);
    });
  }
}
