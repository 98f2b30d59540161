import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { NORTHWIND } from '../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import { createRuntime } from '../src/runtime.ts';
import { DEV_SIGNING_KEY_ID } from './support/dev-signing-key.ts';
import { harbourAsStaging } from './support/harbour-as-staging.ts';

// The staging profile, pointed at a second simulator used strictly as staging (no @simulator step,
// nothing but the API), as a different organisation than the default: Harbour, with its own sort
// code, BIC, CoP participant and known account. Every staging scenario must pass, every flow with
// one: accounts, auth, validation, name verification, notifications, claims and reports.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CUCUMBER = join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'staging-'));
  const runtime = await createRuntime({ memory: true, clock: SchemeClock.frozenAt('2026-12-21T09:00:00Z') });
  // Two working days on, so the day's reports have arrived, as on a staging environment.
  runtime.sim.scheduler.advanceTo(new Date('2026-12-23T09:00:00Z'));
  server = await listen(runtime, 0);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function stagingRun(env: Record<string, string>): Promise<{ code: number; out: string }> {
  // Journeys span runs (test/conformance-journey.test.ts); this run is one day's.
  const args = [CUCUMBER, '--profile', 'staging', '--tags', 'not @journey', '--format', 'summary'];
  return promisify(execFile)(process.execPath, args, { cwd: ROOT, env, timeout: 180_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
  );
}

describe('the staging profile against a simulator used strictly as staging', () => {
  it('passes every scenario with requests signed as Form3’s SDK signs them, not tokens', async () => {
    const run = await stagingRun({
      PATH: process.env.PATH ?? '',
      NODE_OPTIONS: '--import tsx',
      CONFORMANCE_BASE_URL: server.url,
      CONFORMANCE_CLIENT_ID: NORTHWIND.uuid,
      // The token scenarios (auth.feature) still need the secret; every other request is signed.
      CONFORMANCE_CLIENT_SECRET: NORTHWIND.client_secret,
      CONFORMANCE_SIGNING_KEY_ID: DEV_SIGNING_KEY_ID,
      CONFORMANCE_SIGNING_KEY: join(ROOT, 'fixtures', 'keys', 'northwind-dev-signing.pem'),
      CONFORMANCE_ORGANISATION_ID: NORTHWIND.organisation_id,
      CONFORMANCE_SORT_CODE: '400300',
      CONFORMANCE_BIC: 'NWBKGB22',
      CONFORMANCE_COP_PARTICIPANT_ID: '0015800001041REAAY',
      CONFORMANCE_COP_ACCOUNT: '40030012345678',
      CONFORMANCE_COP_ACCOUNT_NAME: 'Samantha Holder',
      CONFORMANCE_LEDGER: join(dir, 'journeys-signed.json'),
    });
    expect(run.code, run.out.slice(-3000)).toBe(0);
    expect(run.out).toMatch(/conformance: \d+ passed, 0 failed/);
  }, 240_000);

  it('passes every scenario, as another organisation with its own sort code and BIC', async () => {
    const env = { ...harbourAsStaging(server.url), CONFORMANCE_LEDGER: join(dir, 'journeys.json') };
    const run = await stagingRun(env);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/conformance: \d+ passed, 0 failed/);
    const tally = /conformance by flow: (.*)/.exec(run.out)?.[1] ?? '';
    for (const flow of ['accounts', 'auth', 'claims', 'name verification', 'notifications', 'reports'])
      expect(tally, run.out.slice(-2000)).toMatch(new RegExp(`${flow} (\\d+)/\\1(,|$)`));
  }, 240_000);
});
