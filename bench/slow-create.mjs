// Test-only: a deliberately slowed account create, to prove the CI ratio guard (bench/ratio-guard.ts)
// fails when a create gets dearer, and to find the smallest slowdown it catches. Preloaded into a
// benchmarked server (`node --import bench/slow-create.mjs …`; bench/processes.ts does it when
// SCHEME_SIM_BENCH_SLOW_CREATE_FACTOR is set), it makes every POST of an account cost FACTOR times
// the CPU the server spends on a create without it: before the server sees a create, it holds the
// CPU for (FACTOR − 1) × the server's own CPU per create, measured over the creates before it.
// A factor rather than a fixed delay: a 3× slowdown means the same whatever a create costs today,
// so the proof holds as the create path gets faster. Nothing in src reads the variable.
import { Server } from 'node:http';

const factor = Number(process.env.SCHEME_SIM_BENCH_SLOW_CREATE_FACTOR);
if (!(factor >= 1))
  throw new Error('bench/slow-create.mjs: set SCHEME_SIM_BENCH_SLOW_CREATE_FACTOR to a number ≥ 1 (2 = twice the CPU)');

/** Creates per estimate of the unslowed cost: enough that one collection does not decide it. */
const WINDOW = 200;
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

// The unslowed CPU per create: the process's CPU over the last WINDOW creates less what this file
// burnt in them. With a load that only creates, that is the create path's whole cost (collections
// included); the first window, from the first create on, runs unslowed while nothing is known yet.
let perCreate = 0;
let windowStart;
let windowBurnt = 0;
let inWindow = 0;

/** Holds the CPU (busy, not asleep: the guard compares CPU per request) for `micros` of process CPU. */
function burn(micros) {
  const from = cpuNow();
  let now = from;
  while (now - from < micros) now = cpuNow();
  return now - from;
}

const emit = Server.prototype.emit;
Server.prototype.emit = function (event, req, ...rest) {
  if (event === 'request' && req.method === 'POST' && req.url?.split('?')[0] === '/v1/organisation/accounts') {
    windowStart ??= cpuNow();
    if (perCreate > 0) windowBurnt += burn((factor - 1) * perCreate);
    if (++inWindow === WINDOW) {
      const now = cpuNow();
      perCreate = Math.max(0, (now - windowStart - windowBurnt) / WINDOW);
      windowStart = now;
      windowBurnt = 0;
      inWindow = 0;
    }
  }
  return emit.call(this, event, req, ...rest);
};
