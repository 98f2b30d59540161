// Test-only: what held a benchmarked server's event loop, asked from outside. Preloaded into
// `scheme-sim start` (`node --import bench/stall-report.mjs bin/scheme-sim.mjs start …`, as
// bench/store-advance-writes.ts starts it), it answers SIGUSR2 with one line to stderr about the time
// since the last answer (or since start), and starts counting afresh:
//   stalls {"gc":…,"majorGc":…,"gcMs":…,"longestGcMs":…,"longestLoopDelayMs":…,"heapUsed":…}
// (GC pauses on the main thread as perf_hooks reports them, the longest delay of a 1 ms timer,
// process.memoryUsage().heapUsed in bytes, no collection forced). Nothing in src handles the signal.
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

let stalls = { gc: 0, majorGc: 0, gcMs: 0, longestGcMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    stalls.gc++;
    if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) stalls.majorGc++;
    stalls.gcMs += entry.duration;
    stalls.longestGcMs = Math.max(stalls.longestGcMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();

process.on('SIGUSR2', () => {
  const line = {
    ...stalls,
    longestLoopDelayMs: delay.max / 1e6,
    heapUsed: process.memoryUsage().heapUsed,
  };
  stalls = { gc: 0, majorGc: 0, gcMs: 0, longestGcMs: 0 };
  delay.reset();
  process.stderr.write(`stalls ${JSON.stringify(line)}\n`);
});
