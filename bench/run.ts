// `npm run bench`: runs every benchmark in this folder (or those named: `npm run bench -- cop clock`)
// and prints each one's figures and ratios against a baseline measured in the same run.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
/** Helpers, not benchmarks: importing paced-worker.ts outside its worker thread would throw. */
const HELPERS = new Set([
  'lib.ts',
  'run.ts',
  'paced.ts',
  'paced-worker.ts',
  'processes.ts',
  'layer-server.ts',
  'ratio-guard.ts',
  'guard-loads.ts',
  'http-response-parser.ts',
  'store-rows.ts',
  'store-heap.ts',
  'store-advance.ts',
]);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !HELPERS.has(f))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.ts$/, '')))
  // A benchmark runs its report when started as the main module (lib.ts's runWhenMain).
  .filter((f) => readFileSync(join(here, f), 'utf8').includes('runWhenMain(import.meta.url'))
  .sort();

// Each benchmark in a process of its own: a bench that builds a large state in process (10,000
// claims, 100,000 jobs or accounts) would otherwise leave its heap, and the collector's work on it,
// to the benches after it (name verification measured 81–84 µs of CPU a request alone and 103 µs
// after the claims and clock benches in one process: bench/RESULTS.md, 2026-11-27).
let allWithin = true;
let crashed = false;
console.log(`# scheme-sim benchmarks — ${new Date().toISOString()} — node ${process.version}`);
for (const f of files) {
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(here, f)], { stdio: 'inherit' });
  // runWhenMain's exit code: 0 within budget, 1 over it; anything else is a bench that broke.
  if (child.status === 1) allWithin = false;
  else if (child.status !== 0) {
    crashed = true;
    console.log(`\n## ${f} — FAILED TO RUN (exit ${child.status ?? child.signal})`);
  }
}
console.log(
  `\n${crashed ? 'some benchmarks failed to run' : allWithin ? 'all benchmarks within budget' : 'some benchmarks over budget'}`,
);
if (crashed) process.exitCode = 2;
