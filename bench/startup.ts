// Two budgets of docs/design.md measured end to end in child processes:
// - start-up to listening ≤ 1 s: `scheme-sim start --memory --port 0` (the bin, through tsx) until
//   its "listening on" line, against a baseline in the same run: a bare Hono app on
//   @hono/node-server started through the same tsx loader.
// - the whole conformance suite in process ≤ 20 s: `cucumber-js` (default profile), wall time.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BenchReport, ratio } from './lib.ts';

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
  // The baseline lives in bench/ for the time of the run so that it resolves hono from the project.
  const bareFile = join(root, 'bench', '.startup-baseline.ts');
  writeFileSync(
    bareFile,
    `import { serve } from '@hono/node-server';\nimport { Hono } from 'hono';\n` +
      `const app = new Hono(); app.get('/health', (c) => c.json({ status: 'ok' }));\n` +
      `serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (i) => console.log('listening on ' + i.port));\n`,
  );
  const sims: number[] = [];
  const bares: number[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      bares.push(await timeUntil(['--import', 'tsx', bareFile], /listening on/));
      sims.push(
        await timeUntil([join(root, 'bin', 'scheme-sim.mjs'), 'start', '--memory', '--port', '0'], /listening on http/),
      );
    }
  } finally {
    rmSync(bareFile, { force: true });
  }
  return { sim: median(sims), bare: median(bares) };
}

function suite(): Promise<{ ms: number; line: string }> {
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
    child.once('exit', () => {
      const counts = /conformance: .*/.exec(out)?.[0] ?? 'no conformance line';
      // A failure in a timing-sensitive run is named, so it can be told from a slow machine.
      const failed = [...out.matchAll(/^\d+\) Scenario: (.*?)(?: #|$)/gm)].map((m) => m[1]);
      const line = failed.length ? `${counts} (${failed.join('; ')})` : counts;
      resolve({ ms: performance.now() - t0, line });
    });
  });
}

export async function run(): Promise<BenchReport> {
  const s = await startup();
  const c = await suite();
  return {
    name: 'start-up and conformance suite',
    withinBudget: s.sim <= START_BUDGET_MS && c.ms <= SUITE_BUDGET_MS,
    lines: [
      `start-up to listening (median of ${ROUNDS}): ${s.sim.toFixed(0)} ms; bare Hono through tsx: ${s.bare.toFixed(0)} ms; ratio ${ratio(s.sim, s.bare)} (budget ≤ ${START_BUDGET_MS} ms)`,
      `whole conformance suite in process: ${(c.ms / 1000).toFixed(1)} s (budget ≤ ${SUITE_BUDGET_MS / 1000} s); ${c.line}`,
    ],
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await run();
  console.log(`${report.name} — ${report.withinBudget ? 'within budget' : 'OVER BUDGET'}`);
  for (const line of report.lines) console.log(`- ${line}`);
}
