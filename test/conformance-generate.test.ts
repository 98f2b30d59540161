// `scheme-sim conformance --generate` in process: every operation of the document exercised, valid
// and invalid, and nothing fails; and a planted fault (a constraint the target stops enforcing,
// test/support/constraint-dropping-target.ts) fails the run with a curl of one broken field that
// the same seed finds again.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiDocument } from '../features/generate/api-document.ts';
import { documentOf, type GeneratedReport, runGenerated } from '../features/generate/generated-run.ts';
import { openTarget, type Target } from '../features/support/targets.ts';
import { withoutCountryPattern } from './support/constraint-dropping-target.ts';

const ROOT = resolve(import.meta.dirname, '..');

function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(ROOT, 'src', 'cli', 'main.ts'), ...args],
    {
      cwd,
      env: { ...process.env, CONFORMANCE_REPORTS_DIR: '' },
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((done) => child.on('close', (code) => done({ code: code ?? 1, out, err })));
}

describe('conformance --generate in process', () => {
  let result: { code: number; out: string; err: string };
  let report: GeneratedReport;

  beforeAll(async () => {
    // The command docs/conformance.md shows under "Generated checks", as written.
    const page = readFileSync(join(ROOT, 'docs', 'conformance.md'), 'utf8');
    const command = /## Generated checks[\s\S]*?```sh\n(npx scheme-sim conformance --generate[^\n]*)\n```/.exec(
      page,
    )?.[1];
    expect(command).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'conformance-generate-'));
    result = await cli(command!.split(/\s+/).slice(2), dir);
    report = JSON.parse(readFileSync(join(dir, 'reports', 'conformance-inprocess.json'), 'utf8')) as GeneratedReport;
  }, 240_000);

  it('passes, and says so as scenario runs do', () => {
    expect(result.code, result.out + result.err).toBe(0);
    expect(result.out).toMatch(/^conformance: \d+ passed, 0 failed/m);
    expect(report.generated.failures).toEqual([]);
    expect(report.generated.left_behind).toEqual([]);
  });

  it('exercises every operation of the document with valid cases, and every one with something to break with invalid ones', async () => {
    const ops = report.generated.operations;
    const target = await openTarget('inprocess');
    const doc = await documentOf(target, async () => ({}));
    await target.close();
    expect(ops.map((o) => o.operation).sort()).toEqual(doc.operations.map((o) => o.key).sort());
    const validUnexercised = ops.filter((o) => o.valid.sent === 0).map((o) => o.operation);
    // A name verification's admission (those the run makes name none); a played
    // scenario only when one of a claim's scenarios was drawn (docs/conformance.md).
    for (const op of validUnexercised)
      expect([
        'GET /v1/organisation/nameverifications/{name_verification_id}/admissions/{id}',
        'GET /v1/simulator/scenarios/{id}',
      ]).toContain(op);
    const invalidUnexercised = ops.filter((o) => o.invalid.sent === 0).map((o) => o.operation);
    // Open operations with no body or parameter have nothing to break.
    for (const op of invalidUnexercised)
      expect(ops.find((o) => o.operation === op)!.invalid.unexercisable).toMatch(/^nothing to break/);
    const create = ops.find((o) => o.operation === 'POST /v1/organisation/accounts')!;
    expect(create.valid.accepted).toBeGreaterThan(0);
    const rules = new Set(ops.flatMap((o) => o.invalid.rules));
    for (const rule of ['required', 'type', 'id', 'credentials']) expect(rules).toContain(rule);
    expect(rules.size).toBeGreaterThanOrEqual(8);
  });
});

describe('a planted fault: the target stops enforcing the pattern of an account’s country', () => {
  let target: Target;
  let doc: ApiDocument;
  const run = () =>
    runGenerated(withoutCountryPattern(target), doc, {
      cases: 400,
      seed: 7,
      only: /^POST \/v1\/organisation\/accounts$/,
    });

  beforeAll(async () => {
    target = await openTarget('inprocess');
    doc = await documentOf(target, async () => ({}));
  });
  afterAll(() => target.close());

  it('fails the run with a curl of the smallest request, one broken field, and a seed that finds it again', async () => {
    const report = await run();
    expect(report.totals.failed).toBe(1);
    const [failure] = report.generated.failures;
    expect(failure!.kind).toBe('invalid');
    expect(failure!.problem).toMatch(/at data\.attributes\.country: expected a 4xx, got 201/);
    expect(failure!.curl).toMatch(/^curl -sS -X POST 'http:\/\/scheme-sim\.test\/v1\/organisation\/accounts'/);
    const body = JSON.parse(/-d '(.*)'$/.exec(failure!.curl)![1]!);
    // What the body keeps beyond the identity is the country broken and what the rules beyond the
    // schema put there (body-context.ts): every generated optional attribute was left out.
    expect(Object.keys(body.data.attributes).sort()).toEqual(
      ['account_number', 'bank_id', 'bank_id_code', 'bic', 'country', 'name'].sort(),
    );
    const country = body.data.attributes.country;
    expect(typeof country === 'string' && /^[A-Z]{2}$/.test(country)).toBe(false);
    expect(failure!.seed).toBe(7);
    const again = await run();
    // The same case again (the answer differs only in the fresh id the run gives each record).
    const what = (problem: string) => problem.split(': {')[0];
    expect(again.generated.failures.map((f) => what(f.problem))).toEqual([what(failure!.problem)]);
    // What a baseline compares (src/cli/baseline.ts) names the break, the same in both runs.
    expect(report.divergences[0]!.case).toMatch(/^\w+ at data\.attributes\.country: expected a 4xx, got 201$/);
    expect(again.divergences.map((d) => d.case)).toEqual([report.divergences[0]!.case]);
  }, 120_000);

  it('passes without the fault', async () => {
    const report = await runGenerated(target, doc, {
      cases: 100,
      seed: 7,
      only: /^POST \/v1\/organisation\/accounts$/,
    });
    expect(report.generated.failures).toEqual([]);
  }, 120_000);
});
