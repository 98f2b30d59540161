// Test-only: a benchmarked server's memory, asked from outside. Preloaded into `scheme-sim start`
// (`node --import bench/memory-report.mjs bin/scheme-sim.mjs start …`, as bench/sandboxes.ts starts
// it), it answers SIGUSR2 by collecting all garbage and printing one line to stderr:
//   memory {"rss":…,"heapTotal":…,"heapUsed":…,"external":…,"arrayBuffers":…}
// (process.memoryUsage(), bytes). Nothing in src handles the signal: the product has no such hook.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

process.on('SIGUSR2', () => {
  // Three passes: what a weak callback or a finaliser freed in one pass goes in the next.
  for (let i = 0; i < 3; i++) gc();
  process.stderr.write(`memory ${JSON.stringify(process.memoryUsage())}\n`);
});
