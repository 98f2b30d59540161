// The console's report of a conformance run (cucumber.mjs names it as the first format): progress
// dots, then each failure with its HTTP exchange once (in the failed step's message when the step
// put it there, else the scenario's last exchange). The table by flow that ends the run is the run
// report's (run-report-formatter.ts), whichever formatter writes to the console. The HTML report
// keeps every exchange of every step.
import { formatterHelpers, ProgressFormatter, type SummaryFormatter } from '@cucumber/cucumber';
import { type Attempt, textOf } from './run-report.ts';

/**
 * The exchanges a scenario's steps attached (world.ts names each `METHOD /path`), oldest first; not
 * its hooks' (the reset before it, the removal of what it created after it).
 */
function exchangesOf(attempt: Attempt): string[] {
  const out: string[] = [];
  for (const step of attempt.testCase.testSteps.filter((s) => s.pickleStepId))
    for (const a of attempt.stepAttachments[step.id] ?? [])
      if (a.mediaType === 'text/plain' && /^[A-Z]+ \//.test(a.fileName ?? '')) out.push(textOf(a));
  return out;
}

const indent = (text: string, by: string) =>
  text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');

export default class ConsoleFormatter extends ProgressFormatter {
  static override readonly documentation = 'Progress, then failures with their exchange once';

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
