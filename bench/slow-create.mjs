// Test-only: a deliberately slowed account create, to prove the CI ratio guard (bench/ratio-guard.ts)
// fails when a create gets dearer. Preloaded into a benchmarked server (`node --import
// bench/slow-create.mjs …`, bench/processes.ts does it when SCHEME_SIM_BENCH_SLOW_CREATE_US is set),
// it holds the CPU for that many microseconds before the server sees each POST of an account.
// Nothing in src reads the variable: the product has no such flag.
import { Server } from 'node:http';

const micros = Number(process.env.SCHEME_SIM_BENCH_SLOW_CREATE_US);
if (!(micros > 0))
  throw new Error('bench/slow-create.mjs: set SCHEME_SIM_BENCH_SLOW_CREATE_US to a number of microseconds');

const emit = Server.prototype.emit;
Server.prototype.emit = function (event, req, ...rest) {
  if (event === 'request' && req.method === 'POST' && req.url?.split('?')[0] === '/v1/organisation/accounts') {
    // Busy, not asleep: the guard compares CPU per request.
    const until = performance.now() + micros / 1000;
    while (performance.now() < until);
  }
  return emit.call(this, event, req, ...rest);
};
