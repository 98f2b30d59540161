// Two budgets of docs/design.md measured end to end in child processes:
// - start-up to listening ≤ 1 s: `scheme-sim start --memory --port 0` as the bin runs it for a user
//   (the built dist/ on node; the run says so, and fails, when dist/ is not current) until its
//   "listening on" line, against a baseline in the same run started like for like: bare Hono on
//   @hono/node-server, a plain .mjs on node (bench/bare-server.mjs), no tsx on either side.
// - the whole conformance suite in process ≤ 20 s: `cucumber-js` (default profile), wall time; a
//   run with any failed scenario (or a non-zero exit) is never within budget, however fast.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { distIsCurrent } from '../bin/dist-current.mjs';
import { type BenchReport, ratio, runWhenMain } from './lib.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const START_BUDGET_MS = 1000;
const SUITE_BUDGET_MS = 20_000;
const ROUNDS = 5;

/** Spawns `args` and resolves with the ms until stdout matches `ready`; the child is then killed. */
export function timeUntil(args: string[], ready: RegExp, timeoutMs = 30_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready within ${timeoutMs / 1000} s: ${out}`));
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        const ms = performance.now() - t0;
        clearTimeout(timer);
        child.kill('SIGTERM');
        child.once('exit', () => resolve(ms));
      }
    });
    child.once('error', reject);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function startup(): Promise<{ sim: number; bare: number }> {
  const sims: number[] = [];
  const bares: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bares.push(await timeUntil([join(root, 'bench', 'bare-server.mjs')], /listening on http/));
    sims.push(
      await timeUntil([join(root, 'bin', 'scheme-sim.mjs'), 'start', '--memory', '--port', '0'], /listening on http/),
    );
  }
  return { sim: median(sims), bare: median(bares) };
}

function suite(): Promise<{ ms: number; line: string; passed: boolean }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(root, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js'),
        '--format',
        'summary',
      ],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const counts = /conformance: .*/.exec(out)?.[0] ?? 'no conformance line';
      const failedCount = Number(/(\d+) failed/.exec(counts)?.[1] ?? 0);
      // A failure in a timing-sensitive run is named, so it can be told from a slow machine.
      const failed = [...out.matchAll(/^\d+\) Scenario: (.*?)(?: #|$)/gm)].map((m) => m[1]);
      const line = failed.length ? `${counts} (${failed.join('; ')})` : counts;
      const passed = code === 0 && failed.length === 0 && failedCount === 0 && /\d+ passed/.test(counts);
      resolve({ ms: performance.now() - t0, line: `${line}; exit code ${code}`, passed });
    });
  });
}

export async function run(): Promise<BenchReport> {
  const built = distIsCurrent(root);
  const s = await startup();
  const c = await suite();
  const startHeld = built && s.sim <= START_BUDGET_MS;
  const suiteHeld = c.passed && c.ms <= SUITE_BUDGET_MS;
  return {
    name: 'start-up and conformance suite',
    withinBudget: startHeld && suiteHeld,
    lines: [
      `start-up to listening (median of ${ROUNDS}): scheme-sim ${s.sim.toFixed(0)} ms (${built ? 'the built dist/ on node, as the bin runs it' : 'FROM SOURCES through tsx: dist/ is not current, run npm run build; not like for like'}); bare Hono on node (bench/bare-server.mjs): ${s.bare.toFixed(0)} ms; ratio ${ratio(s.sim, s.bare)} (budget ≤ ${START_BUDGET_MS} ms): ${startHeld ? 'held' : 'NOT HELD'}`,
      `whole conformance suite in process: ${(c.ms / 1000).toFixed(1)} s (budget ≤ ${SUITE_BUDGET_MS / 1000} s, and every scenario passing); ${c.line}: ${suiteHeld ? 'held' : 'NOT HELD'}`,
    ],
  };
}

await runWhenMain(import.meta.url, run);
