import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { cpuMicrosOf, mainThreadCpuMicrosOf } from './processes.ts';

/** Holds the calling thread for `ms` of wall time. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe.skipIf(!existsSync(`/proc/${process.pid}/task/${process.pid}/schedstat`))('mainThreadCpuMicrosOf', () => {
  it("counts the main thread's work and not another thread's", async () => {
    const main0 = mainThreadCpuMicrosOf(process.pid)!;
    const all0 = cpuMicrosOf(process.pid);
    // Another thread works 150 ms while this one waits, then this one works 50 ms. The worker is
    // read before it ends: an ended thread leaves /proc/PID/task, and its time with it.
    const worker = new Worker(
      'const until = performance.now() + 150; while (performance.now() < until); const { parentPort } = require("node:worker_threads"); parentPort.postMessage("done"); parentPort.once("message", () => process.exit());',
      { eval: true },
    );
    await new Promise((done) => worker.once('message', done));
    spin(50);
    const main = (mainThreadCpuMicrosOf(process.pid)! - main0) / 1000;
    const all = (cpuMicrosOf(process.pid) - all0) / 1000;
    await worker.terminate();
    // A shared machine may take the core away for part of a spin, so only the bounds are fixed.
    expect(main).toBeGreaterThan(5);
    expect(main).toBeLessThan(all);
    expect(all - main).toBeGreaterThan(5);
  });

  it('is undefined for a process that does not exist', () => {
    expect(mainThreadCpuMicrosOf(2 ** 22 + 7)).toBeUndefined();
  });
});
