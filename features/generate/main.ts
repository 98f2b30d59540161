// The process `scheme-sim conformance --generate` starts (src/cli/conformance-generate.ts), as it
// starts cucumber for the scenarios: the same targets, settings, preflight and sandbox, then the
// generated run, its table on the console and its report in reports/conformance-<target>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testRuntime } from '../../src/harness/test-runtime.ts';
import { resendingOnClose } from '../support/fetch-again.ts';
import { preflightProblems } from '../support/preflight.ts';
import { tableOf } from '../support/run-report.ts';
import { leaveSandbox } from '../support/sandbox.ts';
import { openTarget } from '../support/targets.ts';
import { documentOf, type GeneratedReport, runGenerated } from './generated-run.ts';

/** The double's own document, for a target that publishes none (staging). */
async function ownDocument(): Promise<Record<string, unknown>> {
  const rt = await testRuntime();
  try {
    return (await (await rt.app.request('/v1/openapi.json')).json()) as Record<string, unknown>;
  } finally {
    await rt.close();
  }
}

/** The lines a failure is printed as: what failed, the curl that sends it again, and the seed. */
export function failureLines(report: GeneratedReport): string[] {
  return report.generated.failures.flatMap((f, i) => [
    `${i + 1}) ${f.kind} ${f.operation}: ${f.problem}`,
    `   ${f.curl}`,
    `   replay: scheme-sim conformance --generate --target ${report.target} --cases ${report.generated.cases} --seed ${f.seed} --operation '^${f.operation.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$'`,
  ]);
}

/** The counts per operation: valid sent, accepted, refused by a documented rule; invalid sent and refused. */
export function countLines(report: GeneratedReport): string[] {
  return report.generated.operations.map(
    (o) =>
      `  ${o.operation}: valid ${o.valid.accepted}/${o.valid.sent}${o.valid.documented ? ` (+${o.valid.documented} refused by a documented rule)` : ''}${o.valid.unexercisable ? ` [${o.valid.unexercisable}]` : ''}; invalid ${o.invalid.refused}/${o.invalid.sent}${o.invalid.documented ? ` (+${o.invalid.documented} refused by a documented rule)` : ''}${o.invalid.rules.length ? ` (${o.invalid.rules.join(', ')})` : ''}${o.invalid.unexercisable ? ` [${o.invalid.unexercisable}]` : ''}`,
  );
}

async function main(): Promise<number> {
  const name = process.env.CONFORMANCE_TARGET ?? 'inprocess';
  const cases = Number(process.env.CONFORMANCE_GENERATE_CASES ?? 200);
  const seed = Number(process.env.CONFORMANCE_GENERATE_SEED ?? Date.now() % 2 ** 31);
  const only = process.env.CONFORMANCE_GENERATE_OPERATION;
  if (name !== 'inprocess') globalThis.fetch = resendingOnClose(globalThis.fetch);
  const problems = await preflightProblems(name);
  if (problems.length > 0) {
    for (const p of problems) process.stderr.write(`conformance preflight: ${p}\n`);
    const left = await leaveSandbox();
    if (left) process.stderr.write(`conformance preflight: ${left}\n`);
    return 2;
  }
  const target = await openTarget(name);
  let report: GeneratedReport;
  try {
    const doc = await documentOf(target, ownDocument);
    console.log(`conformance --generate: ${doc.operations.length} operations, ${cases} cases, seed ${seed}`);
    report = await runGenerated(target, doc, {
      cases,
      seed,
      ...(only ? { only: new RegExp(only) } : {}),
      ...(process.env.CONFORMANCE_GENERATE_LABELS === '1' ? { labelRequests: true } : {}),
      log: (line) => process.stderr.write(`${line}\n`),
    });
  } finally {
    await target.close();
    const left = await leaveSandbox();
    if (left) process.stderr.write(`conformance: ${left}\n`);
  }
  const dir = process.env.CONFORMANCE_REPORTS_DIR || 'reports';
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `conformance-${report.target}.json`), `${JSON.stringify(report, null, 2)}\n`);
  const { passed, failed, skipped } = report.totals;
  const lines = [
    '',
    'Generated cases by operation (valid accepted/sent; invalid refused/sent, with the rules broken):',
    ...countLines(report),
    '',
    tableOf(report),
    ...(report.generated.failures.length
      ? ['Failures, shrunk, as curl ($AUTH: a bearer token):', ...failureLines(report), '']
      : []),
    ...(report.generated.left_behind.length ? [`Left behind: ${report.generated.left_behind.join('; ')}`] : []),
    `conformance: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return failed > 0 ? 1 : 0;
}

process.exitCode = await main();
