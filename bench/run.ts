// `npm run bench`: runs every benchmark in this folder (or those named: `npm run bench -- cop clock`)
// and prints each one's figures and ratios against a baseline measured in the same run.
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchReport } from './lib.ts';

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
  'http-response-parser.ts',
  'store-rows.ts',
  'store-heap.ts',
  'store-advance.ts',
]);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !HELPERS.has(f))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.ts$/, '')))
  .sort();

let allWithin = true;
console.log(`# scheme-sim benchmarks — ${new Date().toISOString()} — node ${process.version}`);
for (const f of files) {
  const mod = (await import(pathToFileURL(`${here}/${f}`).href)) as { run?: () => Promise<BenchReport> };
  if (typeof mod.run !== 'function') continue;
  const report = await mod.run();
  allWithin &&= report.withinBudget;
  console.log(`\n## ${report.name} — ${report.withinBudget ? 'within budget' : 'OVER BUDGET'}`);
  for (const line of report.lines) console.log(`- ${line}`);
}
console.log(`\n${allWithin ? 'all benchmarks within budget' : 'some benchmarks over budget'}`);
