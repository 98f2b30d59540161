import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientToken } from '../../features/support/settings.ts';
import { SchemeClock } from '../../src/clock/scheme-clock.ts';
import { clientsFileWithTestKeys, REQUESTER_TEST_KEYS } from '../../src/harness/cop-keys.ts';
import { HARBOUR, NORTHWIND } from '../../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../../src/node/server.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { harbourInASandbox, stagingInASandboxArgs } from '../support/harbour-as-staging.ts';
import { listedAccounts } from '../support/listed-accounts.ts';

// CONFORMANCE_SANDBOX=new: many harness runs at once against ONE simulator, each in a sandbox it
// creates before its first scenario and deletes after its last. The runs share organisations,
// sort codes, participants and account numbers' ranges, and each reads back what it wrote
// (accounts listed by sort code, notifications of its organisation, claims by filters): in one
// world they would meet. Each must pass, and nothing may be left: no sandbox, and nothing in the
// server's own world.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CUCUMBER = join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
const TSX = import.meta.resolve('tsx');
/** Staging runs at once: CONFORMANCE_RUNS, else 20 (about 3.5 minutes on two cores). */
const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 20);
/** Sim runs at once: half as many (each resets its world before every scenario; ten show it). */
const SIM_RUNS = Math.max(2, Math.ceil(RUNS / 2));

let runtime: Runtime;
let server: RunningServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandboxes-'));
  // Anyone may create a sandbox (--sandboxes open): Harbour, the runs' client, is no admin.
  runtime = await createRuntime({
    memory: true,
    clock: SchemeClock.frozenAt('2026-12-21T09:00:00Z'),
    sandboxes: { creation: 'open' },
    // Harbour's requester key registered, so the runs sign name verifications (a strict responder).
    clientsFile: clientsFileWithTestKeys(),
    // Every request the server's own world answers is kept, to show which reached it.
    journalSize: 100_000,
  });
  server = await listen(runtime, 0);
  writeFileSync(join(dir, 'harbour-cop.pem'), REQUESTER_TEST_KEYS.harbour.private_key);
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  out: string;
  ms: number;
}

/**
 * One run of the staging profile, as test/conformance-staging.test.ts runs it (as Harbour, with
 * Northwind as the second organisation), from a folder of its own so that its reports and ledger
 * are its own. Run 0 goes through `scheme-sim conformance --sandbox new`, the others through
 * cucumber with CONFORMANCE_SANDBOX=new.
 */
async function run(i: number): Promise<Run> {
  const cwd = join(dir, `run-${i}`);
  mkdirSync(cwd);
  const env = harbourInASandbox(server.url, join(dir, 'harbour-cop.pem'), TSX);
  const features = join(ROOT, 'features', '**', '*.feature');
  const args =
    i === 0
      ? stagingInASandboxArgs(ROOT)
      : [
          CUCUMBER,
          '--config',
          relative(cwd, join(ROOT, 'cucumber.mjs')),
          '--profile',
          'staging',
          '--tags',
          'not @journey',
          '--format',
          'summary',
          features,
        ];
  const started = Date.now();
  return promisify(execFile)(process.execPath, args, {
    cwd,
    env: i === 0 ? env : { ...env, CONFORMANCE_SANDBOX: 'new' },
    timeout: 900_000,
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr, ms: Date.now() - started }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      out: err.stdout + err.stderr,
      ms: Date.now() - started,
    }),
  );
}

/**
 * One run of the sim profile's account scenarios against the same simulator: the sim target resets
 * its world ({"scope": "all"}) before every scenario, so runs at once in one world wipe each
 * other's accounts mid-scenario; each in a sandbox of its own resets only that one.
 */
async function simRun(i: number): Promise<Run> {
  const cwd = join(dir, `sim-${i}`);
  mkdirSync(cwd);
  const args = [
    CUCUMBER,
    '--config',
    relative(cwd, join(ROOT, 'cucumber.mjs')),
    '--profile',
    'sim',
    '--tags',
    '@accounts',
    '--format',
    'summary',
    join(ROOT, 'features', '**', '*.feature'),
  ];
  const env = {
    PATH: process.env.PATH ?? '',
    NODE_OPTIONS: `--import ${TSX}`,
    SIM_BASE_URL: server.url,
    CONFORMANCE_SANDBOX: 'new',
  };
  const started = Date.now();
  return promisify(execFile)(process.execPath, args, { cwd, env, timeout: 900_000, maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr, ms: Date.now() - started }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      out: err.stdout + err.stderr,
      ms: Date.now() - started,
    }),
  );
}

describe('conformance runs in sandboxes of one simulator', () => {
  it(`${RUNS} staging runs at once each pass in a sandbox of their own, and leave nothing`, async () => {
    const listed = async () =>
      [...(await listedAccounts(server.url, HARBOUR)), ...(await listedAccounts(server.url, NORTHWIND))]
        .map((a) => a.id)
        .sort();
    const before = await listed();
    const journal = () => runtime.deps.journal!.list(undefined, { own: 'true,false' });
    const seen = new Set(journal().map((e) => e.id));

    const started = Date.now();
    const runs = await Promise.all(Array.from({ length: RUNS }, (_, i) => run(i)));
    const wall = Date.now() - started;
    console.log(
      `${RUNS} runs at once: ${(wall / 1000).toFixed(1)} s wall; each ${runs.map((r) => (r.ms / 1000).toFixed(0)).join(', ')} s`,
    );

    // Each run made its sandbox a strict responder.
    const creates = journal().filter(
      (e) => e.method === 'POST' && e.path === '/v1/simulator/sandboxes' && !seen.has(e.id),
    );
    expect(creates).toHaveLength(RUNS);
    for (const c of creates) expect(c.body, 'a sandbox create without cop_strict').toMatch(/"cop_strict":\s*true/);
    const sandboxes = new Set<string>();
    for (const [i, r] of runs.entries()) {
      expect(r.code, `run ${i}: ${r.out.slice(-3000)}`).toBe(0);
      expect(r.out, `run ${i}`).toMatch(/conformance: \d+ passed, 0 failed/);
      // Every flow of the staging profile ran in the sandbox.
      const tally = /conformance by flow: (.*)/.exec(r.out)?.[1] ?? '';
      for (const flow of ['accounts', 'auth', 'claims', 'cop', 'notifications'])
        expect(tally, `run ${i}: ${tally}`).toMatch(new RegExp(`\\b${flow} (\\d+)/\\d+`));
      const id = /conformance: created sandbox ([0-9a-f-]{36})/.exec(r.out)?.[1];
      expect(id, `run ${i}: ${r.out.slice(0, 2000)}`).toBeDefined();
      sandboxes.add(id!);
    }
    expect(sandboxes.size).toBe(RUNS);

    // The server's own world answered the runs only this: tokens for the configured client (Harbour,
    // which creates the sandbox), the sandboxes' creation and deletion, the participants' JWKS,
    // which is the server's (every sandbox has the fixtures' participants and their keys), and the
    // auth scenarios' requests without credentials or with wrong ones, which name no sandbox: each
    // refused (4xx), so nothing was read or written there.
    const reached = journal()
      .filter((e) => !seen.has(e.id) && !(e.status >= 400 && e.status < 500))
      .map((e) => `${e.method} ${e.path} ${e.status}`)
      .filter(
        (l) =>
          !/^(POST \/v1\/oauth2\/token 200|POST \/v1\/simulator\/sandboxes 201|DELETE \/v1\/simulator\/sandboxes\/[0-9a-f-]{36} 204|GET \/v1\/participants\/\w+\/jwks\.json 200)$/.test(
            l,
          ),
      );
    expect(reached).toEqual([]);

    // No sandbox is left: the default sandbox's admin lists none.
    const { token } = await clientToken(server.url, NORTHWIND.client_id, NORTHWIND.client_secret);
    const res = await fetch(`${server.url}/v1/simulator/sandboxes`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown[] }).data).toEqual([]);
    expect(runtime.sandboxes.list()).toEqual([]);

    // Nor anything in the server's own world: its accounts are as they were.
    expect(await listed()).toEqual(before);
  }, 1_200_000);

  it(`${SIM_RUNS} sim runs at once, each resetting before every scenario, pass in sandboxes of their own`, async () => {
    const started = Date.now();
    const runs = await Promise.all(Array.from({ length: SIM_RUNS }, (_, i) => simRun(i)));
    console.log(
      `${SIM_RUNS} sim runs at once: ${((Date.now() - started) / 1000).toFixed(1)} s wall; each ${runs.map((r) => (r.ms / 1000).toFixed(0)).join(', ')} s`,
    );
    for (const [i, r] of runs.entries()) {
      expect(r.code, `sim run ${i}: ${r.out.slice(-3000)}`).toBe(0);
      expect(r.out, `sim run ${i}`).toMatch(/conformance: (\d+) passed, 0 failed/);
    }
    expect(runtime.sandboxes.list()).toEqual([]);
  }, 1_200_000);
});
