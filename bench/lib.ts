// Shared pieces of the benchmarks: serve an app on a free port, load it with autocannon, and a
// bare Hono baseline measured in the same run (these machines are shared and noisy: only ratios
// against a same-run baseline mean anything).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type ServerType, serve } from '@hono/node-server';
import autocannon from 'autocannon';
import { Hono } from 'hono';

export interface Served {
  url: string;
  close(): Promise<void>;
}

/** Serves a Node request listener (the simulator's own, see src/server.ts) on a free port. */
export function serveListener(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<Served> {
  return new Promise((resolve) => {
    const server = createServer(listener);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

export function serveFetch(fetch: (req: Request) => Response | Promise<Response>): Promise<Served> {
  return new Promise((resolve) => {
    const server: ServerType = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            (server as unknown as { closeAllConnections(): void }).closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Answers 500–599 (autocannon counts them apart from other non-2xx). */
  server5xx?: number;
  /** Requests answered in the measured time, whatever the status. */
  answered?: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Several bodies, used round robin (autocannon requests). */
  bodies?: string[];
  /** A fresh body for every request (creates that need a new id each time); not with `workers`. */
  makeBody?: () => string;
  connections?: number;
  /** Run the client on this many worker threads instead of this thread. */
  workers?: number;
  durationSeconds?: number;
  /** Each answered request's latency in ms (unrounded) is pushed here; not with `workers`. */
  latencies?: number[];
  // No fixed-rate option: autocannon's `overallRate` sends in bursts; latency at a given rate is bench/paced.ts's.
}

/** Bounded load (time-limited, loopback only). */
export async function load(o: LoadOptions): Promise<LoadResult> {
  const job = autocannon({
    url: o.url,
    method: o.method ?? 'GET',
    headers: o.headers ?? {},
    ...(o.body !== undefined ? { body: o.body } : {}),
    ...(o.bodies ? { requests: o.bodies.map((body) => ({ body })) } : {}),
    ...(o.makeBody ? { requests: [{ setupRequest: (req: object) => ({ ...req, body: o.makeBody?.() }) }] } : {}),
    connections: o.connections ?? 10,
    ...(o.workers ? { workers: o.workers } : {}),
    duration: o.durationSeconds ?? 5,
  });
  const latencies = o.latencies;
  // The promise autocannon returns is also its tracker (autocannon/lib/init.js), which emits each answer.
  const tracker = job as unknown as import('node:events').EventEmitter;
  if (latencies)
    tracker.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  const result = await job;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    server5xx: (result as unknown as Record<string, number>)['5xx'] ?? 0,
    answered: result.requests.total,
  };
}

/** A bare Hono app answering `body` with `contentType`: the baseline every HTTP benchmark divides by. */
export function bareHono(
  method: 'GET' | 'POST',
  path: string,
  body: string | Uint8Array,
  contentType: string,
  headers: Record<string, string> = {},
): Hono {
  const app = new Hono();
  const handler = async (c: import('hono').Context) => {
    if (method === 'POST') await c.req.text();
    return c.body(body as never, 200, { ...headers, 'content-type': contentType });
  };
  if (method === 'POST') app.post(path, handler);
  else app.get(path, handler);
  return app;
}

export interface BenchReport {
  name: string;
  /** Lines to print and to copy into bench/RESULTS.md. */
  lines: string[];
  /** Whether the budget of docs/design.md held in this run. */
  withinBudget: boolean;
}

/** What held the event loop while a phase ran: GC pauses on this thread and the longest event-loop delay. */
export interface Stalls {
  /** Mark-compact collections (the whole heap). */
  majorGc: number;
  /** Every other collection: scavenges of the young generation, incremental marking, weak callbacks. */
  otherGc: number;
  /** Longest single GC pause, milliseconds (incremental marking steps between pauses are not counted). */
  longestGcMs: number;
  /** Longest delay of a 1 ms event-loop timer, milliseconds: how long the thread was held at once. */
  longestLoopDelayMs: number;
}

/** Starts watching this thread for stalls; the returned function stops and reports. */
export function watchStalls(): () => Stalls {
  const stalls: Stalls = { majorGc: 0, otherGc: 0, longestGcMs: 0, longestLoopDelayMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) stalls.majorGc++;
      else stalls.otherGc++;
      stalls.longestGcMs = Math.max(stalls.longestGcMs, entry.duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  return () => {
    observer.disconnect();
    delay.disable();
    stalls.longestLoopDelayMs = delay.max / 1e6;
    return stalls;
  };
}

/**
 * A full garbage collection of this thread's heap now: a bench that builds a large state in process
 * (100,000 accounts) collects what building it left, so that collecting it is not charged to
 * the first phase measured afterwards. (node's `gc`, exposed for this call.)
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Runs a benchmark file's `run` when the file is the one node was started with (`npx tsx bench/x.ts`). */
export async function runWhenMain(moduleUrl: string, run: () => Promise<BenchReport>): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  // Exit 2 for a bench that broke: 1 says over budget (bench/run.ts tells them apart).
  const report = await run().catch((err: unknown) => {
    console.error(err);
    process.exit(2);
  });
  console.log(`\n## ${report.name} — ${report.withinBudget ? 'within budget' : 'OVER BUDGET'}`);
  for (const line of report.lines) console.log(`- ${line}`);
  process.exitCode = report.withinBudget ? 0 : 1;
}

export const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(2));

/** The nearest-rank percentile `p` (0–100) of unsorted values, in their unit. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
