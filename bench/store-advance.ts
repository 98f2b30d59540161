// Part of bench/store.ts: /health latency while POST /v1/simulator/clock/advance runs two years
// (505 working days) with the journal engine, the daily reports on, and active webhook
// subscriptions (created reports and report admissions) delivering to a local receiver.
// Baseline: the same /health loop with no advance running, same runtime, same run.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { requestListener } from '../src/node/server.ts';
import { createRuntime, type RuntimeOptions } from '../src/runtime.ts';
import { type Stalls, serveListener, watchStalls } from './lib.ts';

export const WORKING_DAYS = 505;

export interface AdvanceFigures {
  baseline: { p99: number; max: number; count: number };
  during: { p99: number; max: number; count: number; non200: number };
  advanceMs: number;
  advanceStatus: number;
  jobsRun: number;
  webhooksReceived: number;
  /** What held the event loop during the advance (GC pauses, the longest loop delay). */
  stalls: Stalls;
}

/** The pth percentile (0–100) of `xs`, nearest rank. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const summary = (xs: number[]) => ({ p99: percentile(xs, 99), max: Math.max(...xs), count: xs.length });

/**
 * GETs /health one after another from a worker thread (a client with its own event loop, as a real
 * one has: in the server's thread its own I/O would wait behind the server's work too) until told
 * to stop; each latency in ms, and the non-200 answers.
 */
function healthLoop(url: string): { stop(): Promise<{ ms: number[]; non200: number }> } {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     let stopping = false;
     parentPort.on('message', () => { stopping = true; });
     (async () => {
       const ms = []; let non200 = 0;
       while (!stopping) {
         const t = performance.now();
         const res = await fetch(workerData.url + '/health');
         await res.arrayBuffer();
         ms.push(performance.now() - t);
         if (res.status !== 200) non200++;
       }
       parentPort.postMessage({ ms, non200 });
     })();`,
    { eval: true, workerData: { url } },
  );
  const result = new Promise<{ ms: number[]; non200: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const r = await result;
      await worker.terminate();
      return r;
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `store`: where the runtime keeps its data (default: a journal file in `dir`). */
export async function healthDuringAdvance(
  dir: string,
  store: Pick<RuntimeOptions, 'data' | 'postgres'> = { data: join(dir, 'advance.json') },
): Promise<AdvanceFigures> {
  let webhooksReceived = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      webhooksReceived++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  const rt = await createRuntime({
    ...store,
    auth: 'off',
    seedAccounts: false,
    clock: SchemeClock.frozenAt('2027-01-04T08:00:00.000Z'),
  });
  const served = await serveListener(requestListener(rt));
  rt.start();
  try {
    const organisationId = rt.sim.organisations.defaultOrganisation.id;
    for (const recordType of ['reports', 'report_admissions']) {
      const res = await fetch(`${served.url}/v1/notification/subscriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          data: {
            id: randomUUID(),
            organisation_id: organisationId,
            type: 'subscriptions',
            attributes: {
              event_type: 'created',
              record_type: recordType,
              callback_uris: [{ callback_transport: 'http', callback_uri: hookUrl }],
            },
          },
        }),
      });
      if (res.status !== 201) throw new Error(`subscription: ${res.status} ${await res.text()}`);
    }
    const warm = healthLoop(served.url);
    await pause(500);
    await warm.stop();
    const baseline = healthLoop(served.url);
    await pause(3000);
    const base = await baseline.stop();

    const stop = watchStalls();
    const loop = healthLoop(served.url);
    const t0 = performance.now();
    const advance = fetch(`${served.url}/v1/simulator/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ working_days: WORKING_DAYS }),
    }).then(async (res) => {
      const body = (await res.json()) as { data?: { jobs_run_count?: number } };
      return { status: res.status, ms: performance.now() - t0, jobs: body.data?.jobs_run_count ?? 0 };
    });
    const a = await advance;
    const during = await loop.stop();
    const stalls = stop();
    return {
      baseline: summary(base.ms),
      during: { ...summary(during.ms), non200: during.non200 },
      advanceMs: a.ms,
      advanceStatus: a.status,
      jobsRun: a.jobs,
      webhooksReceived,
      stalls,
    };
  } finally {
    await served.close();
    await rt.close();
    receiver.closeAllConnections();
    await new Promise((done) => receiver.close(done));
  }
}
