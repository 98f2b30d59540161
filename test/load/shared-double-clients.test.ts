import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientsFileWithTestKeys, REQUESTER_TEST_KEYS } from '../../src/harness/cop-keys.ts';
import { runDoc } from '../support/doc-runner.ts';
import { harbourInASandbox, stagingInASandboxArgs } from '../support/harbour-as-staging.ts';
import { killNodes, type NodeProcess, startCluster } from '../support/node-cluster.ts';
import { postgresForTests } from '../support/postgres-for-tests.ts';
import { readmeTourSection } from '../support/readme-tour.ts';
import { type RoundRobinProxy, startRoundRobinProxy } from '../support/round-robin-proxy.ts';

// Issue 43, "three nodes in CI": three `scheme-sim start --node` processes on one real PostgreSQL,
// behind a balancer that sends each request to the next node (test/support/round-robin-proxy.ts).
// Through it, the README's five-minute tour runs as the docs check runs it (every status and output
// as the README shows them), and the harness's staging profile passes in a sandbox of its own:
// clients that know one base URL see one simulator.

const ROOT = resolve(import.meta.dirname, '..', '..');
const TSX = import.meta.resolve('tsx');

const postgres = postgresForTests();
let proxy: RoundRobinProxy;
let dir: string;
const nodes: NodeProcess[] = [];

beforeAll(async () => {
  if (!postgres.available) return;
  dir = mkdtempSync(join(tmpdir(), 'shared-double-clients-'));
  // Harbour's requester key registered: the staging run signs its name verifications (a strict sandbox).
  const started = await startCluster(await postgres.server.createDatabase(), 3, nodes, [
    '--clients',
    clientsFileWithTestKeys(),
  ]);
  proxy = await startRoundRobinProxy(() => started.map((n) => n.url));
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await killNodes(nodes);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `scheme-sim conformance --target staging --sandbox new` as Harbour (test/load/conformance-sandboxes.test.ts). */
async function stagingInASandbox(baseUrl: string): Promise<{ code: number; out: string }> {
  const key = join(dir, 'harbour-cop.pem');
  writeFileSync(key, REQUESTER_TEST_KEYS.harbour.private_key);
  const env = harbourInASandbox(baseUrl, key, TSX);
  const args = stagingInASandboxArgs(ROOT);
  return promisify(execFile)(process.execPath, args, { cwd: dir, env, timeout: 600_000, maxBuffer: 64 << 20 }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
  );
}

describe.skipIf(!postgres.available)('three nodes behind a round-robin balancer', () => {
  it("run the README's tour and the staging profile in a sandbox of its own, green", async () => {
    const page = join(dir, 'tour.md');
    writeFileSync(page, readmeTourSection(ROOT));
    // At once: the tour in the default world, the staging run in its sandbox (each world its own clock).
    const [tour, staging] = await Promise.all([runDoc(ROOT, page, proxy.url), stagingInASandbox(proxy.url)]);

    expect(tour.failures).toEqual([]);
    expect(tour.ran).toBeGreaterThan(10);

    expect(staging.code, staging.out.slice(-3000)).toBe(0);
    expect(staging.out).toMatch(/conformance: created sandbox [0-9a-f-]{36}/);
    expect(staging.out).toMatch(/conformance: [1-9]\d* passed, 0 failed/);
    const tally = /conformance by flow: (.*)/.exec(staging.out)?.[1] ?? '';
    for (const flow of ['accounts', 'auth', 'claims', 'cop', 'notifications'])
      expect(tally, tally).toMatch(new RegExp(`\\b${flow} [1-9]\\d*/\\d+`));

    // The balancer spread them: every node was sent a share, and passed on what it does not serve.
    const shares = nodes.map((n) => proxy.sent.get(n.url) ?? 0);
    for (const share of shares) expect(share).toBeGreaterThan(20);
  }, 600_000);
});
