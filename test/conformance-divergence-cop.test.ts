import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../features/support/run-report.ts';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { HARBOUR } from '../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import { createRuntime } from '../src/runtime.ts';
import { runFeatureAsStaging } from './support/feature-as-staging.ts';
import { listedAccounts } from './support/listed-accounts.ts';

// The corpus on any target (features/name_verification_corpus.feature) against a simulator used as
// staging whose matcher diverges: its typo threshold raised from Jaro-Winkler 0.85 to 0.92 (the
// simulator's own, RuntimeOptions.matchThresholds; nothing else in the process moves). One case
// of those run on any target then answers differently: close-typo-both (Johnathan Mathews for
// Jonathan Matthews), no match where the corpus expects a close one. The run must fail, name that
// case with the expected and the actual answer, and still remove every account it registered.

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'divergent-cop-'));
  const runtime = await createRuntime({
    memory: true,
    clock: SchemeClock.frozenAt('2026-12-21T09:00:00Z'),
    matchThresholds: { typoMinJaroWinkler: 0.92 },
  });
  server = await listen(runtime, 0);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the corpus on a target whose matcher diverges', () => {
  it('fails the run, the divergence table naming the case, expected and actual, and leaves no account', async () => {
    const before = new Set((await listedAccounts(server.url, HARBOUR)).map((a) => a.id));
    // From a folder of its own, so its reports/conformance-staging.json is this run's alone.
    const run = await runFeatureAsStaging(dir, server.url, 'name_verification_corpus.feature');
    expect(run.code, run.out.slice(-3000)).toBe(1);
    expect(run.out).toMatch(/conformance: 1[5-9]\d passed, 1 failed\n/);
    expect(run.out).toMatch(
      /Divergences \(1\):\n {2}1\) cop: close-typo-both # \S*features\/name_verification_corpus\.feature:\d+\n/,
    );
    expect(run.out).toContain(
      '     expected {"Matched":false,"ReasonCode":"MBAM","Name":"Jonathan Matthews"}\n' +
        '     actual   {"Matched":false,"ReasonCode":"ANNM"}\n',
    );
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'conformance-staging.json'), 'utf8')) as RunReport;
    expect(report.target).toBe('staging');
    expect(report.base_url).toBe(server.url);
    expect(report.divergences).toMatchObject([
      {
        flow: 'cop',
        scenario: 'corpus case close-typo-both on the target',
        case: 'close-typo-both',
        expected: { Matched: false, ReasonCode: 'MBAM', Name: 'Jonathan Matthews' },
        actual: { Matched: false, ReasonCode: 'ANNM' },
      },
    ]);
    // The failed scenario's account went too, as every other one.
    expect((await listedAccounts(server.url, HARBOUR)).filter((a) => !before.has(a.id))).toEqual([]);
  }, 240_000);
});
