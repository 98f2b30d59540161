// Writes after a long advance (issue 46): account creates on a journal store just after a two-year
// advance cost what they cost before it. Each round is a fresh `scheme-sim start` process (journal
// store, --auth off, the clock frozen at 2027-01-04, the daily reports on) with two webhook
// subscriptions (created reports and report admissions) to a receiver in this process, the set-up
// of bench/store-advance.ts. Creates go one at a time from a worker thread (a client with its own
// event loop): 300 to warm up, 2,000 on the fresh server (the baseline, same server, same run),
// then POST /v1/simulator/clock/advance {"working_days":505} and, as soon as it answers, 2,000
// more, while the advance's notifications are still being delivered: nothing is waited out.
// Budget: after-advance create p99 ÷ fresh create p99 ≤ 1.5 in every round (ROUNDS, default 5).
// Beside it, not budgeted: the server's CPU per create in each phase, what held its event loop
// (bench/stall-report.mjs), the webhooks received, and when the delivery backlog had drained.
// STORE_ADVANCE_WRITES_ROUNDS=5, STORE_ADVANCE_WRITES_CREATES=2000 (each phase).
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type BenchReport, percentile, runWhenMain } from './lib.ts';
import {
  ACCOUNTS_PATH,
  accountCreateBody,
  cpuMicrosOf,
  DEV_ORGANISATION,
  median,
  ROOT,
  type ServerProcess,
  spawnServer,
} from './processes.ts';
import { STALL_REPORT, type Stalls, stallsOf } from './server-stalls.ts';
import { WORKING_DAYS } from './store-advance.ts';

const ROUNDS = Number(process.env.STORE_ADVANCE_WRITES_ROUNDS ?? 5);
const CREATES = Number(process.env.STORE_ADVANCE_WRITES_CREATES ?? 2000);
const WARM = 300;
const BUDGET = 1.5;
/** The backlog counts as drained once no webhook arrived for this long (or after DRAIN_LIMIT_MS). */
const QUIET_MS = 3000;
const DRAIN_LIMIT_MS = 180_000;
const CLOCK_START = '2027-01-04T08:00:00Z';

interface Phase {
  p50: number;
  p99: number;
  max: number;
  /** Server CPU over the phase per create, µs (the delivery's work included). */
  cpuMicros: number;
  wallMs: number;
  webhooks: number;
  stalls: Stalls;
}

interface Round {
  fresh: Phase;
  after: Phase;
  advanceMs: number;
  webhooksByAdvanceEnd: number;
  /** From the advance's answer to the last webhook; undefined when it had not drained by DRAIN_LIMIT_MS. */
  drainMs: number | undefined;
  webhooksTotal: number;
  /** The data file (snapshot) and its journal, MiB: when the advance answered, and after the creates. */
  files: { atAnswer: StoreFiles; afterCreates: StoreFiles };
}

interface StoreFiles {
  snapshotMiB: number;
  journalMiB: number;
  /** The snapshot file's inode: a compaction renames a new one over it. */
  snapshotInode: number;
  /** A compaction is under way: the journal it folds in waits beside the snapshot as `.journal.old`. */
  compacting: boolean;
}

function storeFiles(file: string): StoreFiles {
  const size = (path: string) => (existsSync(path) ? statSync(path).size / 2 ** 20 : 0);
  return {
    snapshotMiB: size(file),
    journalMiB: size(`${file}.journal`),
    snapshotInode: statSync(file).ino,
    compacting: existsSync(`${file}.journal.old`),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A client on a worker thread (its own event loop, as a real client has), started and ready before
 * `go()`: then it creates `bodies` one after another and resolves with each one's latency in ms.
 */
async function creator(url: string, bodies: string[]): Promise<{ go(): Promise<number[]> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     parentPort.once('message', async () => {
       const ms = [];
       for (const body of workerData.bodies) {
         const t = performance.now();
         const res = await fetch(workerData.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
         await res.arrayBuffer();
         if (res.status !== 201) throw new Error('create answered ' + res.status);
         ms.push(performance.now() - t);
       }
       parentPort.postMessage(ms);
     });
     parentPort.postMessage('ready');`,
    { eval: true, workerData: { url: `${url}${ACCOUNTS_PATH}`, bodies } },
  );
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  failed.catch(() => undefined);
  await Promise.race([new Promise((resolve) => worker.once('message', resolve)), failed]);
  return {
    go: () => {
      const done = new Promise<number[]>((resolve) => worker.once('message', resolve));
      worker.postMessage('go');
      return Promise.race([done, failed]).finally(() => worker.terminate());
    },
  };
}

/** A client made ready to create (the worker started, its bodies made). */
const ready = (server: ServerProcess) => creator(server.url, Array.from({ length: CREATES }, accountCreateBody));

/** Runs the ready client's creates: their latencies, the server's CPU and stalls meanwhile. */
async function phase(
  server: ServerProcess,
  client: { go(): Promise<number[]> },
  webhooks: () => number,
): Promise<Phase> {
  await stallsOf(server); // counts afresh from here (a millisecond or two)
  const cpu0 = cpuMicrosOf(server.pid);
  const hooks0 = webhooks();
  const t0 = performance.now();
  const ms = await client.go();
  const wallMs = performance.now() - t0;
  const cpuMicros = (cpuMicrosOf(server.pid) - cpu0) / CREATES;
  return {
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    max: Math.max(...ms),
    cpuMicros,
    wallMs,
    webhooks: webhooks() - hooks0,
    stalls: await stallsOf(server),
  };
}

async function post(url: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function round(dir: string): Promise<Round> {
  const dataFile = join(dir, 'store.json');
  let webhooks = 0;
  let lastWebhookAt = performance.now();
  const receiver: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      webhooks++;
      lastWebhookAt = performance.now();
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  const server = await spawnServer([
    '--import',
    STALL_REPORT,
    join(ROOT, 'bin', 'scheme-sim.mjs'),
    'start',
    '--port',
    '0',
    '--data',
    dataFile,
    '--auth',
    'off',
    '--clock',
    'frozen',
    '--clock-start',
    CLOCK_START,
  ]);
  try {
    for (const recordType of ['reports', 'report_admissions']) {
      const res = await post(server.url, '/v1/notification/subscriptions', {
        data: {
          id: randomUUID(),
          organisation_id: DEV_ORGANISATION,
          type: 'subscriptions',
          attributes: {
            event_type: 'created',
            record_type: recordType,
            callback_uris: [{ callback_transport: 'http', callback_uri: hookUrl }],
          },
        },
      });
      if (res.status !== 201) throw new Error(`subscription: ${res.status} ${await res.text()}`);
    }
    await (await creator(server.url, Array.from({ length: WARM }, accountCreateBody))).go();
    const fresh = await phase(server, await ready(server), () => webhooks);
    // The second client is ready before the advance, so its first create follows the answer at once.
    const client = await ready(server);
    const t0 = performance.now();
    const advance = await post(server.url, '/v1/simulator/clock/advance', { working_days: WORKING_DAYS });
    if (advance.status !== 200) throw new Error(`advance: ${advance.status} ${await advance.text()}`);
    await advance.arrayBuffer();
    const answeredAt = performance.now();
    const webhooksByAdvanceEnd = webhooks;
    const atAnswer = storeFiles(dataFile);
    const after = await phase(server, client, () => webhooks);
    const afterCreates = storeFiles(dataFile);
    while (performance.now() - lastWebhookAt < QUIET_MS && performance.now() - answeredAt < DRAIN_LIMIT_MS)
      await pause(100);
    const drained = performance.now() - lastWebhookAt >= QUIET_MS;
    return {
      fresh,
      after,
      advanceMs: answeredAt - t0,
      webhooksByAdvanceEnd,
      drainMs: drained ? Math.max(0, lastWebhookAt - answeredAt) : undefined,
      webhooksTotal: webhooks,
      files: { atAnswer, afterCreates },
    };
  } finally {
    await server.close();
    receiver.closeAllConnections();
    await new Promise((done) => receiver.close(done));
  }
}

/** Whether a compaction wrote a snapshot while the creates ran, or was still writing one after them. */
function compactionDuring(r: Round): string {
  const { atAnswer, afterCreates } = r.files;
  const finished = atAnswer.snapshotInode !== afterCreates.snapshotInode;
  if (afterCreates.compacting) return finished ? 'finished one, another under way' : 'under way';
  return finished ? 'finished' : 'none';
}

const f1 = (n: number) => n.toFixed(1);
const each = (rounds: Round[], pick: (r: Round) => number, digits = 1) =>
  rounds.map((r) => pick(r).toFixed(digits)).join('/');
const mib = (bytes: number) => Math.round(bytes / 2 ** 20);

export async function run(): Promise<BenchReport> {
  const load0 = loadavg()[0]!;
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'scheme-sim-bench-advance-writes-'));
    try {
      rounds.push(await round(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const ratios = rounds.map((r) => r.after.p99 / r.fresh.p99);
  const worst = Math.max(...ratios);
  const held = ratios.every((x) => x <= BUDGET);
  const stallsOfPhase = (name: 'fresh' | 'after') =>
    `${name}: GC pauses ${each(rounds, (r) => r[name].stalls.gcMs, 0)} ms in all (longest ${each(rounds, (r) => r[name].stalls.longestGcMs)} ms; major ${each(rounds, (r) => r[name].stalls.majorGc, 0)}), longest loop delay ${each(rounds, (r) => r[name].stalls.longestLoopDelayMs)} ms, heap used at its end ${rounds.map((r) => mib(r[name].stalls.heapUsed)).join('/')} MiB`;
  const drains = rounds.map((r) =>
    r.drainMs === undefined ? `> ${DRAIN_LIMIT_MS / 1000} s` : `${f1(r.drainMs / 1000)} s`,
  );
  return {
    name: 'store-advance-writes: creates after a two-year advance',
    withinBudget: held,
    lines: [
      `load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(
          ' ',
        )} (${load0.toFixed(2)} at the start) on ${cpus().length} cores; ${ROUNDS} rounds of a fresh \`scheme-sim start --data FILE --auth off --clock frozen\` process, two webhook subscriptions (created reports, report admissions) to a local receiver; ${CREATES} creates one at a time per phase after ${WARM} of warm-up`,
      `fresh (the baseline): create p50 ${f1(median(rounds.map((r) => r.fresh.p50)))} ms, p99 ${f1(median(rounds.map((r) => r.fresh.p99)))} ms (rounds p50 ${each(rounds, (r) => r.fresh.p50)}, p99 ${each(rounds, (r) => r.fresh.p99)}, max ${each(rounds, (r) => r.fresh.max)} ms); server CPU ${each(rounds, (r) => r.fresh.cpuMicros, 0)} µs per create`,
      `the advance (${WORKING_DAYS} working days): ${each(rounds, (r) => r.advanceMs / 1000)} s; webhooks received by its answer ${each(rounds, (r) => r.webhooksByAdvanceEnd, 0)}`,
      `right after it: create p50 ${f1(median(rounds.map((r) => r.after.p50)))} ms, p99 ${f1(median(rounds.map((r) => r.after.p99)))} ms (rounds p50 ${each(rounds, (r) => r.after.p50)}, p99 ${each(rounds, (r) => r.after.p99)}, max ${each(rounds, (r) => r.after.max)} ms); server CPU ${each(rounds, (r) => r.after.cpuMicros, 0)} µs per create, the delivery's included; webhooks received meanwhile ${each(rounds, (r) => r.after.webhooks, 0)} in ${each(rounds, (r) => r.after.wallMs / 1000)} s`,
      `delivery backlog drained ${drains.join('/')} after the advance answered (${each(rounds, (r) => r.webhooksTotal, 0)} webhooks in all)`,
      `store files (snapshot + journal, MiB) when the advance answered ${rounds.map((r) => `${f1(r.files.atAnswer.snapshotMiB)}+${f1(r.files.atAnswer.journalMiB)}`).join('/')}, after the creates ${rounds.map((r) => `${f1(r.files.afterCreates.snapshotMiB)}+${f1(r.files.afterCreates.journalMiB)}`).join('/')}; a compaction during the creates: ${rounds.map(compactionDuring).join('/')}`,
      `server, ${stallsOfPhase('fresh')}`,
      `server, ${stallsOfPhase('after')}`,
      `budget: after-advance create p99 ÷ fresh create p99 ≤ ${BUDGET} in every round: ${ratios.map((x) => x.toFixed(2)).join('/')} (worst ${worst.toFixed(2)}): ${held ? 'held' : 'NOT HELD'}`,
    ],
  };
}

await runWhenMain(import.meta.url, run);
