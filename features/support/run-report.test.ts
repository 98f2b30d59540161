import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from './run-report.ts';

// The run report on a probe run of five scenarios in two flows (passed, skipped with a reason,
// failed with a divergence, failed without one): the console's table by flow and reports/conformance-<target>.json.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CUCUMBER = join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');

let dir: string;
let out: string;
let code: number;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'run-report-'));
  // The probe's steps are an ES module, as the harness's own (package.json "type").
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'probe.steps.ts'),
    `import { Given } from ${JSON.stringify(join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'lib', 'index.js'))};
import { expectSame } from ${JSON.stringify(join(ROOT, 'features', 'support', 'divergence.ts'))};
Given('the probe passes', () => {});
Given('the probe skips, saying {string}', function (this: { log(t: string): void }, why: string) {
  this.log(why);
  return 'skipped';
});
Given('the probe compares case {string}', async function (this: never, kase: string) {
  await expectSame(this, kase, { Matched: true }, { Matched: false, ReasonCode: 'ANNM' });
});
Given('the probe fails', () => {
  throw new Error('plainly wrong');
});
`,
  );
  writeFileSync(
    join(dir, 'probe.feature'),
    `@cop
Feature: The run report's probe

  Scenario: passes
    Given the probe passes

  Scenario: waits
    Given the probe skips, saying "nothing to check in the window"

  Scenario: diverges
    Given the probe compares case "full-exact"

  Scenario: fails
    Given the probe fails
`,
  );
  writeFileSync(
    join(dir, 'other.feature'),
    '@tenancy\nFeature: Another flow\n\n  Scenario: passes too\n    Given the probe passes\n',
  );
  ({ out, code } = await new Promise<{ out: string; code: number }>((done) =>
    execFile(
      process.execPath,
      [
        CUCUMBER,
        '--config',
        relative(dir, join(ROOT, 'cucumber.mjs')),
        '--import',
        join(dir, 'probe.steps.ts'),
        join(dir, 'probe.feature'),
        join(dir, 'other.feature'),
      ],
      { cwd: dir, env: { PATH: process.env.PATH ?? '' }, timeout: 120_000 },
      (err, stdout, stderr) => done({ out: stdout + stderr, code: (err as { code?: number } | null)?.code ?? 0 }),
    ),
  ));
}, 150_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the run report', () => {
  it('ends the console with a table by flow, the skipped with their reasons and the divergences', () => {
    expect(code, out).toBe(1);
    const table = out.slice(out.indexOf('Conformance against inprocess, by flow:'));
    expect(table).toContain(
      [
        '  flow     passed  failed  skipped',
        '  cop           1       2        1',
        '  tenancy       1       0        0',
        '  total         2       2        1',
      ].join('\n'),
    );
    expect(table).toContain(
      'Skipped, with reasons:\n  cop: waits # probe.feature:7\n    nothing to check in the window\n',
    );
    expect(table).toContain(
      'Divergences (1):\n  1) cop: full-exact # probe.feature:10\n     expected {"Matched":true}\n     actual   {"Matched":false,"ReasonCode":"ANNM"}\n',
    );
    expect(table).toContain('conformance: 2 passed, 2 failed, 1 skipped\n');
    expect(table).toContain('conformance by flow: cop 1/4 (2 failed, 1 skipped), tenancy 1/1\n');
    // The step's failure names the case, the expected and the actual answer.
    expect(out).toContain(
      'divergence: full-exact: expected {"Matched":true}, got {"Matched":false,"ReasonCode":"ANNM"}',
    );
  });

  it('is written as JSON under reports/, named by its target', () => {
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'conformance-inprocess.json'), 'utf8')) as RunReport;
    expect(report.target).toBe('inprocess');
    expect(report.totals).toEqual({ passed: 2, failed: 2, skipped: 1 });
    expect(report.flows).toEqual({
      cop: { passed: 1, failed: 2, skipped: 1 },
      tenancy: { passed: 1, failed: 0, skipped: 0 },
    });
    expect(report.scenarios.find((s) => s.name === 'waits')).toEqual({
      flow: 'cop',
      name: 'waits',
      location: 'probe.feature:7',
      outcome: 'skipped',
      reason: 'nothing to check in the window',
    });
    expect(report.scenarios.find((s) => s.name === 'fails')).toMatchObject({
      outcome: 'failed',
      reason: 'Error: plainly wrong',
    });
    expect(report.divergences).toEqual([
      {
        flow: 'cop',
        scenario: 'diverges',
        location: 'probe.feature:10',
        case: 'full-exact',
        expected: { Matched: true },
        actual: { Matched: false, ReasonCode: 'ANNM' },
      },
    ]);
  });
});
