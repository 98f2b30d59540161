import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { clientsFileWithTestKeys, REQUESTER_TEST_KEYS } from '../src/harness/cop-keys.ts';
import { HARBOUR, NORTHWIND } from '../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import { createRuntime } from '../src/runtime.ts';
import { DEV_SIGNING_KEY_ID } from './support/dev-signing-key.ts';
import { harbourAsStaging } from './support/harbour-as-staging.ts';
import { listedAccounts } from './support/listed-accounts.ts';
import { STAGING_TODAY, stagingSimulator } from './support/staging-simulator.ts';

// The staging profile, pointed at a second simulator used strictly as staging (no @simulator step,
// nothing but the API), as a different organisation than the default: Harbour, with its own sort
// code, BIC, CoP participant and known account. Every staging scenario must pass, every flow with
// one: accounts, auth, validation, name verification, notifications, claims and reports.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CUCUMBER = join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');

let server: RunningServer;
/** A second one started as `scheme-sim start --cop-strict`, Harbour's requester key registered. */
let strictServer: RunningServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'staging-'));
  server = await stagingSimulator();
  strictServer = await stagingSimulator({ copStrict: true, clientsFile: clientsFileWithTestKeys() });
});
afterAll(async () => {
  await server.close();
  await strictServer.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Harbour's requester identity as a staging user sets it: a PEM file, its key id (iss: its participant). */
function harbourSigning(): Record<string, string> {
  const key = join(dir, 'harbour-cop.pem');
  writeFileSync(key, REQUESTER_TEST_KEYS.harbour.private_key);
  return { CONFORMANCE_COP_SIGNING_KEY: key, CONFORMANCE_COP_SIGNING_KID: REQUESTER_TEST_KEYS.harbour.key_id };
}

async function stagingRun(env: Record<string, string>, extra: string[] = []): Promise<{ code: number; out: string }> {
  // Journeys span runs (test/conformance-journey.test.ts); this run is one day's.
  const args = [CUCUMBER, '--profile', 'staging', '--tags', 'not @journey', '--format', 'summary', ...extra];
  const withToday = { CONFORMANCE_TODAY: STAGING_TODAY, ...env };
  return promisify(execFile)(process.execPath, args, { cwd: ROOT, env: withToday, timeout: 180_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
  );
}

/** The end-of-run tally by flow (`conformance by flow: claims 15/16 (1 skipped), …`), as numbers. */
function flowCounts(out: string): Record<string, { passed: number; total: number }> {
  const line = /conformance by flow: (.*)/.exec(out)?.[1] ?? '';
  const counts: Record<string, { passed: number; total: number }> = {};
  for (const m of line.matchAll(/(\w+) (\d+)\/(\d+)/g)) counts[m[1]!] = { passed: Number(m[2]), total: Number(m[3]) };
  return counts;
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
    // The three flows the project exists for, each with at least as many scenarios as issue 33 asks,
    // every one passed (Northwind sponsors, so even the sponsored participant report is listed).
    const flows = flowCounts(run.out);
    for (const [flow, least] of [
      ['reports', 15],
      ['claims', 15],
      ['notifications', 10],
    ] as const) {
      expect(flows[flow]?.passed, `${flow}: ${run.out.slice(-1500)}`).toBeGreaterThanOrEqual(least);
      expect(flows[flow]?.passed, flow).toBe(flows[flow]?.total);
    }
  }, 240_000);

  it('passes every scenario, as another organisation with its own sort code and BIC', async () => {
    const listed = async () => [
      ...(await listedAccounts(server.url, HARBOUR)),
      ...(await listedAccounts(server.url, NORTHWIND)),
    ];
    const before = new Set((await listed()).map((a) => a.id));
    const env = {
      ...harbourAsStaging(server.url),
      // A second organisation, for the tenancy scenarios (@two-organisations).
      CONFORMANCE_OTHER_CLIENT_ID: NORTHWIND.client_id,
      CONFORMANCE_OTHER_CLIENT_SECRET: NORTHWIND.client_secret,
      CONFORMANCE_OTHER_ORGANISATION_ID: NORTHWIND.organisation_id,
      CONFORMANCE_LEDGER: join(dir, 'journeys.json'),
    };
    const run = await stagingRun(env);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/conformance: \d+ passed, 0 failed/);
    // The corpus on any target: at least 150 name verification scenarios, each account removed after.
    expect(flowCounts(run.out).cop?.passed, run.out.slice(-1500)).toBeGreaterThanOrEqual(150);
    // Nor any other account: every one a scenario creates is deleted after it, in either organisation.
    const left = (await listed()).filter((a) => !before.has(a.id));
    expect(left.map((a) => `${a.attributes.bank_id}${a.attributes.account_number} ${a.attributes.name}`)).toEqual([]);
    const tally = /conformance by flow: (.*)/.exec(run.out)?.[1] ?? '';
    for (const flow of ['accounts', 'auth', 'claims', 'notifications'])
      expect(tally, run.out.slice(-2000)).toMatch(new RegExp(`${flow} (\\d+)/\\1(,|$)`));
    // Harbour sponsors no participant: the one report type it never gets is skipped, saying so.
    expect(tally).toMatch(/reports (\d+)\/(\d+) \(1 skipped\)/);
    // This simulator answers unsigned requests: the two scenarios about a strict target are skipped, saying so.
    expect(tally).toMatch(/cop (\d+)\/(\d+) \(2 skipped\)/);
  }, 240_000);

  it('passes every name verification scenario against a strict responder, requests signed, answers verified', async () => {
    const env = {
      ...harbourAsStaging(strictServer.url),
      ...harbourSigning(),
      CONFORMANCE_LEDGER: join(dir, 'journeys-strict.json'),
    };
    const run = await stagingRun(env, ['features/name_verification_known_account.feature']);
    expect(run.code, run.out.slice(-3000)).toBe(0);
    // The two scenarios about a strict target ran (the preflight found it strict): nothing skipped.
    expect(run.out, run.out.slice(-2000)).toMatch(/conformance: (\d+) passed, 0 failed\n/);
    expect(run.out).toMatch(/cop (\d+)\/\1(,|$|\n)/);
  }, 240_000);

  it('stops in the preflight, naming the signing settings, when a strict responder gets no requester key', async () => {
    const env = { ...harbourAsStaging(strictServer.url), CONFORMANCE_LEDGER: join(dir, 'journeys-unsigned.json') };
    const run = await stagingRun(env, ['features/name_verification_known_account.feature']);
    expect(run.code, run.out).toBe(2);
    const lines = run.out.split('\n').filter((l) => l.startsWith('conformance preflight:'));
    expect(lines, run.out).toHaveLength(1);
    expect(lines[0]).toMatch(/UK\.OBIE\.Signature\.Missing.*CONFORMANCE_COP_SIGNING_KEY .*CONFORMANCE_COP_SIGNING_KID/);
  }, 60_000);

  it('stops in the preflight when the strict responder refuses the requester key, naming the claim', async () => {
    const env = {
      ...harbourAsStaging(strictServer.url),
      ...harbourSigning(),
      CONFORMANCE_COP_SIGNING_KID: 'not-registered',
      CONFORMANCE_LEDGER: join(dir, 'journeys-badkid.json'),
    };
    const run = await stagingRun(env, ['features/name_verification_known_account.feature']);
    expect(run.code, run.out).toBe(2);
    expect(run.out).toMatch(
      /conformance preflight: .*CONFORMANCE_COP_SIGNING_KID.*UK\.OBIE\.Signature\.InvalidClaim at kid/,
    );
  }, 60_000);
});

describe('the staging preflight against the target', () => {
  it('stops a run with a wrong sort code in one line naming CONFORMANCE_SORT_CODE, leaving nothing behind', async () => {
    const runtime = await createRuntime({ memory: true, clock: SchemeClock.frozenAt('2026-12-21T09:00:00Z') });
    const target = await listen(runtime, 0);
    try {
      const harbourAccounts = () =>
        [...runtime.sim.accounts.repo.rows.values()].filter((a) => a.organisation_id === HARBOUR.organisation_id)
          .length;
      const before = harbourAccounts();
      const run = await stagingRun({
        ...harbourAsStaging(target.url),
        CONFORMANCE_SORT_CODE: '400300', // Northwind's, not Harbour's
        CONFORMANCE_LEDGER: join(dir, 'journeys-wrong.json'),
      });
      expect(run.code, run.out).toBe(2);
      const lines = run.out.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^conformance preflight: CONFORMANCE_SORT_CODE 400300 is refused for organisation /);
      expect(harbourAccounts()).toBe(before);
    } finally {
      await target.close();
    }
  }, 120_000);
});
