// An open-loop, constant-rate load generator, for latency at a given load (cop: p99 at half of peak).
//
// Why not autocannon's `overallRate`: it gives each connection a per-second quota that it sends as
// fast as it can, then pauses until the next 1 s tick, so the load arrives in bursts at full speed
// and the p99 measures the burst, not the rate. Here request k is due at start + k/rate whether
// or not earlier ones have been answered (open loop), and its latency runs from that due time to
// the end of its response, so a stalled server is charged for the requests it held back too
// (coordinated omission corrected, as wrk2 does).
//
// The generator runs on a worker thread (bench/paced-worker.ts) with its own event loop: the
// server under test runs on the main thread of the same process, and a client sharing that loop
// would delay the server's work and be delayed by it.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface PacedOptions {
  /** http://127.0.0.1:port/path (plain HTTP only). */
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** Request bodies, used round robin (request k sends bodies[k % length]); none: no body. */
  bodies?: string[];
  /** Requests per second, overall (spread evenly over the connections that are free). */
  rate: number;
  durationSeconds: number;
  /** Keep-alive sockets, one request in flight on each. Default 10. */
  connections?: number;
  /** Paced load before the measured window, not counted. Default 0. */
  warmupSeconds?: number;
  /** A request unanswered this long after it was sent counts as an error. Default 5000. */
  timeoutMs?: number;
}

export interface PacedResult {
  /** The rate asked for. */
  rate: number;
  /** Requests of the measured window written to a socket. */
  sent: number;
  /** Responses received (any status). */
  completed: number;
  /** Socket errors, connections closed with a request in flight, parse errors, timeouts. */
  errors: number;
  non2xx: number;
  /** Requests due in the measured window that found no free connection before the end (server too slow). */
  unsent: number;
  /** Responses per second of the measured window that arrived within it (not during the drain after it). */
  achievedRate: number;
  /** Milliseconds from each request's due time to the end of its response (NaN when none completed). */
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  /** Milliseconds from due time to the write: the generator's own lateness (timer granularity, queueing). */
  sendLag: { p50: number; p99: number };
}

/** What the worker gets: the options with defaults filled in. */
export type PacedWorkerInput = Required<Omit<PacedOptions, 'bodies'>> & { bodies: string[]; drainMs: number };

/**
 * The worker is TypeScript: tsx's CommonJS hook (tsx/cjs) is registered inside the worker before it
 * is required. (On Node 20 a `.ts` worker entry fails even under `tsx`, whose ESM hooks the
 * worker does not get; reports.ts sidesteps that with an eval'd JavaScript worker.)
 */
const TSX_CJS = createRequire(import.meta.url).resolve('tsx/cjs');
const WORKER_FILE = fileURLToPath(new URL('./paced-worker.ts', import.meta.url));
const BOOT = `require(${JSON.stringify(TSX_CJS)}); require(${JSON.stringify(WORKER_FILE)});`;
/** How long the worker waits for queued and in-flight requests after the last one is due. */
const DRAIN_MS = 2000;

export function paced(o: PacedOptions): Promise<PacedResult> {
  const input: PacedWorkerInput = {
    url: o.url,
    method: o.method ?? (o.bodies?.length ? 'POST' : 'GET'),
    headers: o.headers ?? {},
    bodies: o.bodies?.length ? o.bodies : [''],
    rate: o.rate,
    durationSeconds: o.durationSeconds,
    connections: o.connections ?? 10,
    warmupSeconds: o.warmupSeconds ?? 0,
    timeoutMs: o.timeoutMs ?? 5000,
    drainMs: DRAIN_MS,
  };
  if (!(input.rate > 0) || !(input.durationSeconds > 0) || !(input.connections >= 1)) {
    return Promise.reject(
      new Error(
        `paced: rate, durationSeconds and connections must be positive (${JSON.stringify({ rate: o.rate, durationSeconds: o.durationSeconds, connections: o.connections })})`,
      ),
    );
  }
  // Bounded: the schedule, the drain, and a margin for starting the worker and connecting.
  const limitMs = (input.warmupSeconds + input.durationSeconds) * 1000 + DRAIN_MS + 15_000;
  return new Promise<PacedResult>((resolve, reject) => {
    const worker = new Worker(BOOT, { eval: true, workerData: input });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () => settle(() => reject(new Error(`paced: no result from the load worker within ${limitMs} ms`))),
      limitMs,
    );
    worker.once('message', (result: PacedResult) => settle(() => resolve(result)));
    worker.once('error', (err) => settle(() => reject(err)));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`paced: load worker exited (code ${code}) without a result`))),
    );
  });
}
