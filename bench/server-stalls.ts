// What held a benchmarked server's event loop, asked from outside: the server runs with
// bench/stall-report.mjs preloaded (STALL_REPORT), which answers SIGUSR2 with a line of figures.
import { join } from 'node:path';
import { ROOT, type ServerProcess } from './processes.ts';

const STALLS_LINE = /^stalls (\{.*\})$/gm;

/** The preload to give `node --import` before bin/scheme-sim.mjs. */
export const STALL_REPORT = join(ROOT, 'bench', 'stall-report.mjs');

/** What bench/stall-report.mjs counts between two answers. */
export interface Stalls {
  gc: number;
  majorGc: number;
  gcMs: number;
  longestGcMs: number;
  longestLoopDelayMs: number;
  heapUsed: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What held the server's loop since it was last asked; the server counts afresh from its answer. */
export async function stallsOf(server: ServerProcess): Promise<Stalls> {
  const seen = server.output().match(STALLS_LINE)?.length ?? 0;
  process.kill(server.pid, 'SIGUSR2');
  for (const until = performance.now() + 30_000; performance.now() < until; ) {
    const lines = server.output().match(STALLS_LINE) ?? [];
    if (lines.length > seen) return JSON.parse(lines[lines.length - 1]!.slice('stalls '.length)) as Stalls;
    await pause(1);
  }
  throw new Error('the server did not report its stalls within 30 s');
}
