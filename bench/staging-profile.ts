// The staging profile's run time: `npm run conformance:staging` (every scenario that runs on any
// target, journeys included, on a fresh ledger) against a simulator used strictly as staging, as
// Harbour, the way test/conformance-staging.test.ts sets it up. Budget (issue 33): under 2 minutes
// on this machine, every scenario passing or skipped with its reason. A figure, not a test.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { harbourAsStaging } from '../test/support/harbour-as-staging.ts';
import { STAGING_TODAY, stagingSimulator } from '../test/support/staging-simulator.ts';
import { type BenchReport, runWhenMain } from './lib.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BUDGET_MS = 120_000;

export async function run(): Promise<BenchReport> {
  const server = await stagingSimulator();
  const dir = mkdtempSync(join(tmpdir(), 'staging-bench-'));
  try {
    const env = {
      ...harbourAsStaging(server.url),
      CONFORMANCE_TODAY: STAGING_TODAY,
      CONFORMANCE_LEDGER: join(dir, 'journeys.json'),
    };
    const cucumber = join(root, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
    const t0 = performance.now();
    const { code, out } = await new Promise<{ code: number | null; out: string }>((done, fail) => {
      const child = spawn(process.execPath, [cucumber, '--profile', 'staging', '--format', 'summary'], {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.stderr.on('data', (d: Buffer) => (text += d.toString()));
      child.once('error', fail);
      child.once('exit', (c) => done({ code: c, out: text }));
    });
    const ms = performance.now() - t0;
    const counts = /conformance: .*/.exec(out)?.[0] ?? 'no conformance line';
    const byFlow = /conformance by flow: .*/.exec(out)?.[0] ?? '';
    const held = code === 0 && / 0 failed/.test(counts) && ms <= BUDGET_MS;
    return {
      name: 'staging profile against a simulator used as staging (issue 33)',
      withinBudget: held,
      lines: [
        `npm run conformance:staging, as Harbour, journeys on a fresh ledger: ${(ms / 1000).toFixed(1)} s (budget < ${BUDGET_MS / 1000} s, nothing failing): ${held ? 'held' : 'NOT HELD'}; exit code ${code}`,
        `${counts}; ${byFlow}`,
      ],
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await runWhenMain(import.meta.url, run);
