import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// `scheme-sim conformance --baseline`: a probe feature whose one scenario fails (an account nobody
// made, expected 200) runs in process. Against an empty baseline the failure is new and the run
// fails; against the report of that run it is still diverging, nothing is new, and the run passes.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'scheme-sim.mjs');
const project = mkdtempSync(join(tmpdir(), 'conformance-baseline-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

async function conformance(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, 'conformance', ...args], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '' },
      timeout: 120_000,
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('scheme-sim conformance --baseline', () => {
  it('fails on a divergence the baseline lacks, and passes once the baseline has it', async () => {
    writeFileSync(
      join(project, 'probe.feature'),
      `@accounts
Feature: Baseline probe

  Scenario: An account nobody made is read
    Given I am authenticated as "northwind"
    When I send a GET request to "/v1/organisation/accounts/00000000-0000-4000-8000-000000000001"
    Then the response status is 200

  Scenario: The accounts are listed
    Given I am authenticated as "northwind"
    When I send a GET request to "/v1/organisation/accounts"
    Then the response status is 200
`,
    );
    writeFileSync(
      join(project, 'empty.json'),
      '{"finished_at":"2026-12-20T10:00:00.000Z","scenarios":[],"divergences":[]}',
    );
    const first = await conformance(['--feature', 'probe.feature', '--baseline', 'empty.json']);
    expect(first.out).toContain(
      'Against the baseline empty.json (run 2026-12-20T10:00:00.000Z): 1 new, 0 fixed, 0 still diverging\nNew (1):\n  accounts: An account nobody made is read (failed)\n',
    );
    expect(first.code).toBe(1);

    copyFileSync(join(project, 'reports', 'conformance-inprocess.json'), join(project, 'baseline.json'));
    const second = await conformance(['--feature', 'probe.feature', '--baseline', 'baseline.json']);
    expect(second.out).toMatch(/conformance: 1 passed, 1 failed/);
    expect(second.out).toMatch(
      /: 0 new, 0 fixed, 1 still diverging\nStill diverging \(1\):\n {2}accounts: An account nobody made is read \(failed\)\n/,
    );
    expect(second.code).toBe(0);
  }, 150_000);

  it('refuses a baseline that is missing or not a report, before running anything', async () => {
    const missing = await conformance(['--baseline', 'nowhere.json']);
    expect(missing.out).toContain('--baseline nowhere.json: ENOENT');
    expect(missing.code).toBe(2);
    writeFileSync(join(project, 'garbage.json'), 'not json');
    const garbage = await conformance(['--baseline', 'garbage.json']);
    expect(garbage.out).toContain('--baseline garbage.json is not a run report');
    expect(garbage.code).toBe(2);
  }, 60_000);
});
