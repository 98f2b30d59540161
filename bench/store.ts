// The store engines (issue 16), as ratios measured in one run:
// 1. account create p99 and req/s with 1k, 100k and 1M accounts held, journal and memory engines
//    (and PostgreSQL at STORE_BENCH_PG_SIZES); budgets: journal p99 at the largest size ≤ 2× at the
//    smallest, and no request answers 5xx at any size. The largest journal store starts with a
//    journal just short of compaction and is loaded for COMPACTION_SECONDS, so a whole compaction
//    (the snapshot rewritten in the background) falls inside its measured window: the run says
//    when it started and ended, and the budget does not hold without it. The smallest store is
//    loaded as long again just before the largest, and that p99 is the growth figure's base;
// 2. start-up of `scheme-sim start --data FILE` at the largest size until "listening on" ≤ 15 s,
//    against an empty store's start-up;
// 3. heap after a forced GC of a runtime holding the largest size, journal ÷ memory ≤ 1.5;
// 4. /health p99 during a two-year advance with webhook subscriptions ≤ 50 ms (bench/store-advance.ts).
// Stores are seeded from clones of one API-created account (bench/store-rows.ts), not N creates.
// STORE_BENCH_SIZES=1000,100000,1000000 (default), STORE_BENCH_PG_SIZES=1000,100000 (default),
// STORE_BENCH_SECONDS=5 (each load).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type PostgresServer, postgresBinDir, startPostgres } from '../src/harness/postgres-server.ts';
import { requestListener } from '../src/node/server.ts';
import { createRuntime, type Runtime, type RuntimeOptions } from '../src/runtime.ts';
import { DEFAULT_COMPACTION } from '../src/store/journal-engine.ts';
import { journalPaths } from '../src/store/journal-paths.ts';
import { type BenchReport, type LoadResult, load, ratio, runWhenMain, serveListener } from './lib.ts';
import { timeUntil } from './startup.ts';
import { healthDuringAdvance, WORKING_DAYS } from './store-advance.ts';
import {
  CREATED_FROM,
  createBody,
  type StoredAccount,
  seedAccounts,
  templateAccount,
  writeAccountsSnapshot,
} from './store-rows.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sizesOf = (v: string | undefined, d: number[]) => (v ? v.split(',').map(Number) : d);
const SIZES = sizesOf(process.env.STORE_BENCH_SIZES, [1_000, 100_000, 1_000_000]);
const PG_SIZES = sizesOf(process.env.STORE_BENCH_PG_SIZES, [1_000, 100_000]);
const SECONDS = Number(process.env.STORE_BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
const BUDGET = { p99Growth: 2, startupMs: 15_000, healthP99Ms: 50, heapRatio: 1.5 };

type Engine = 'journal' | 'memory' | 'postgres';
interface CreateFigures extends LoadResult {
  engine: Engine;
  size: number;
  seedMs: number;
  seconds: number;
  /** Seconds into the measured load when a compaction of the journal started and ended, if one did. */
  compaction?: { startedAt?: number; endedAt?: number };
}

/**
 * The journal's length when the largest store's create load starts: a little under the size that
 * starts a compaction, so that one starts (and, given COMPACTION_SECONDS, ends) inside the measured
 * window, writing the whole snapshot in the background while the creates go on.
 */
const JOURNAL_BEFORE_LOAD = DEFAULT_COMPACTION.bytes - 3 * 2 ** 20;
/** The largest journal store's load: long enough to hold a whole compaction of 1M accounts. */
const COMPACTION_SECONDS = Number(process.env.STORE_BENCH_COMPACTION_SECONDS ?? 25);

const fmt = (n: number) => Math.round(n).toLocaleString('en-GB');
const ms = (n: number) => `${n.toFixed(1)} ms`;
let nextNumber = CREATED_FROM;

/**
 * Serves the runtime and loads it with creates (a new id and account number each), then closes it.
 * With `dataFile`, notes when a compaction runs during the measured load (its rotated journal is
 * there from the start of a compaction to its end).
 */
async function measureCreates(
  rt: Runtime,
  engine: Engine,
  size: number,
  seedMs: number,
  seconds = SECONDS,
  dataFile?: string,
): Promise<CreateFigures> {
  const organisationId = rt.sim.organisations.defaultOrganisation.id;
  const served = await serveListener(requestListener(rt));
  let compaction: CreateFigures['compaction'];
  let poll: NodeJS.Timeout | undefined;
  try {
    const url = `${served.url}/v1/organisation/accounts`;
    const options = {
      url,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      makeBody: () => createBody(organisationId, nextNumber++),
      connections: CONNECTIONS,
    };
    await load({ ...options, durationSeconds: 1 }); // warm-up
    if (dataFile) {
      const rotated = journalPaths(dataFile).rotated;
      const t0 = performance.now();
      const found = { startedAt: undefined as number | undefined, endedAt: undefined as number | undefined };
      compaction = found;
      poll = setInterval(() => {
        const at = (performance.now() - t0) / 1000;
        if (existsSync(rotated)) found.startedAt ??= at;
        else if (found.startedAt !== undefined) found.endedAt ??= at;
      }, 50);
    }
    const result = await load({ ...options, durationSeconds: seconds });
    return { ...result, engine, size, seedMs, seconds, ...(compaction ? { compaction } : {}) };
  } finally {
    clearInterval(poll);
    await served.close();
    await rt.close();
  }
}

const common: RuntimeOptions = { auth: 'off', seedAccounts: false, scheduledReports: false };

/**
 * The growth figure's base: the smallest journal store loaded as long as the largest, right before
 * it. A p99 over 5 s and one over 25 s are not the same statistic (the longer window catches rarer
 * stalls), and the machine's speed drifts over the minutes between the first sizes and the largest.
 */
async function smallestAsLong(dir: string, row: StoredAccount, size: number): Promise<CreateFigures> {
  const file = join(dir, `growth-base-${size}.json`);
  await writeAccountsSnapshot(file, row, size);
  const t = performance.now();
  const rt = await createRuntime({ ...common, data: file });
  try {
    return await measureCreates(rt, 'journal', size, performance.now() - t, COMPACTION_SECONDS);
  } finally {
    rmSync(file, { force: true });
    rmSync(`${file}.journal`, { force: true });
  }
}

/** Node's heap after forced GCs in a child holding `size` accounts in `engine`. */
async function heapOf(engine: 'journal' | 'memory', file: string, size: number): Promise<number> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--expose-gc',
      '--max-old-space-size=16384',
      '--import',
      'tsx',
      join(root, 'bench', 'store-heap.ts'),
      engine,
      file,
      String(size),
    ],
    { cwd: root, maxBuffer: 1 << 20 },
  );
  const out = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { heapUsed: number; accounts: number };
  if (out.accounts !== size) throw new Error(`heap child (${engine}) held ${out.accounts} accounts, not ${size}`);
  return out.heapUsed;
}

const startCommand = (file: string) => [
  join(root, 'bin', 'scheme-sim.mjs'),
  'start',
  '--data',
  file,
  '--port',
  '0',
  '--auth',
  'off',
];

export async function run(): Promise<BenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'scheme-sim-bench-store-'));
  const load0 = loadavg()[0]!;
  const creates: CreateFigures[] = [];
  const lines: string[] = [];
  let pg: PostgresServer | undefined;
  try {
    const { row } = await templateAccount();
    // Warm-up (JIT, first sockets), not reported: the first measured load would otherwise pay for it.
    const warm = await createRuntime({ ...common, data: join(dir, 'warm-up.json') });
    await seedAccounts(warm, row, Math.min(...SIZES));
    await measureCreates(warm, 'journal', 0, 0);
    // First, in a process that has not yet held (and let go of) a million rows: a user's simulator
    // advancing two years has no gigabyte of garbage to collect meanwhile.
    const advance = await healthDuringAdvance(dir);
    const largest = Math.max(...SIZES);
    let startup = { ms: Number.NaN, emptyMs: Number.NaN, writeMs: Number.NaN };
    let heap = { journal: Number.NaN, memory: Number.NaN };
    let growthBase: CreateFigures | undefined;
    for (const size of SIZES) {
      const file = join(dir, `accounts-${size}.json`);
      const t0 = performance.now();
      await writeAccountsSnapshot(file, row, size);
      const writeMs = performance.now() - t0;
      if (size === largest) {
        const emptyMs = await timeUntil(startCommand(join(dir, 'empty.json')), /listening on http/, 120_000);
        const sMs = await timeUntil(startCommand(file), /listening on http/, 300_000);
        startup = { ms: sMs, emptyMs, writeMs };
        heap = { journal: await heapOf('journal', file, size), memory: await heapOf('memory', '-', size) };
      }
      // The largest store as one in use: its last accounts in a journal just short of compaction.
      const compacting = size === largest && SIZES.length > 1;
      if (compacting) {
        await writeAccountsSnapshot(file, row, size, JOURNAL_BEFORE_LOAD);
        growthBase = await smallestAsLong(dir, row, Math.min(...SIZES));
      }
      const t1 = performance.now();
      const journal = await createRuntime({ ...common, data: file });
      creates.push(
        compacting
          ? await measureCreates(journal, 'journal', size, performance.now() - t1, COMPACTION_SECONDS, file)
          : await measureCreates(journal, 'journal', size, performance.now() - t1),
      );
      const memory = await createRuntime({ ...common, memory: true });
      const t2 = performance.now();
      await seedAccounts(memory, row, size);
      creates.push(await measureCreates(memory, 'memory', size, performance.now() - t2));
      rmSync(file, { force: true });
      rmSync(`${file}.journal`, { force: true });
    }
    if (postgresBinDir() && PG_SIZES.length > 0) {
      pg = await startPostgres();
      for (const size of PG_SIZES) {
        const rt = await createRuntime({ ...common, postgres: await pg.createDatabase() });
        const t = performance.now();
        await seedAccounts(rt, row, size);
        creates.push(await measureCreates(rt, 'postgres', size, performance.now() - t));
      }
    } else lines.push('postgres: no PostgreSQL binaries under /usr/lib/postgresql: not measured');

    const find = (engine: Engine, size: number) => creates.find((c) => c.engine === engine && c.size === size);
    const smallest = Math.min(...SIZES);
    const atLargest = find('journal', largest)!;
    const base = growthBase ?? find('journal', smallest)!;
    const growth = atLargest.p99 / base.p99;
    const compaction = atLargest.compaction;
    const compactedInWindow = compaction?.startedAt !== undefined && compaction.endedAt !== undefined;
    const server5xx = creates.reduce((s, c) => s + (c.server5xx ?? 0), 0);
    const heapRatio = heap.journal / heap.memory;
    const held = {
      growth: growth <= BUDGET.p99Growth && (SIZES.length === 1 || compactedInWindow),
      no5xx: server5xx === 0 && advance.during.non200 === 0 && advance.advanceStatus === 200,
      startup: startup.ms <= BUDGET.startupMs,
      heap: heapRatio <= BUDGET.heapRatio,
      health: advance.during.p99 <= BUDGET.healthP99Ms,
    };
    const yes = (b: boolean) => (b ? 'held' : 'NOT HELD');
    lines.unshift(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' ',
        )} (${load0.toFixed(2)} at the start) on ${cpus().length} cores; ${CONNECTIONS} connections, ${SECONDS} s per load, a new account per request`,
    );
    for (const c of creates) {
      const mem = find('memory', c.size);
      lines.push(
        `create, ${c.engine}, ${fmt(c.size)} accounts: p99 ${c.p99} ms, p50 ${c.p50} ms, ${fmt(c.requestsPerSecond)} req/s; ` +
          `p99 ÷ memory's ${mem ? ratio(c.p99, mem.p99) : 'n/a'}, req/s ÷ memory's ${mem ? ratio(c.requestsPerSecond, mem.requestsPerSecond) : 'n/a'}; ` +
          `non-2xx ${c.non2xx}, 5xx ${c.server5xx ?? 0}, errors ${c.errors} (seeded in ${fmt(c.seedMs)} ms${c.engine === 'journal' ? ', opening the snapshot' : ''}${c.compaction ? `, and its journal of ${fmt(JOURNAL_BEFORE_LOAD / 2 ** 20)} MB` : ''}; ${c.seconds} s)`,
      );
      if (c.compaction)
        lines.push(
          `  compaction inside that window: ${c.compaction.startedAt === undefined ? 'NONE STARTED' : `started ${c.compaction.startedAt.toFixed(1)} s in, ${c.compaction.endedAt === undefined ? 'STILL RUNNING at the end' : `ended ${c.compaction.endedAt.toFixed(1)} s in (${(c.compaction.endedAt - c.compaction.startedAt).toFixed(1)} s writing the ${fmt(largest)}-account snapshot while the creates went on)`}`}`,
        );
    }
    if (growthBase)
      lines.push(
        `create, journal, ${fmt(smallest)} accounts, loaded as long as the largest, just before it (the growth figure's base): p99 ${growthBase.p99} ms, p50 ${growthBase.p50} ms, ${fmt(growthBase.requestsPerSecond)} req/s; non-2xx ${growthBase.non2xx}, 5xx ${growthBase.server5xx ?? 0}, errors ${growthBase.errors}; ${growthBase.seconds} s`,
      );
    lines.push(
      `budget: journal create p99 at ${fmt(largest)} (a whole compaction inside the window: ${compactedInWindow ? 'yes' : 'NO'}) ÷ at ${fmt(smallest)} over the same ${base.seconds} s = ${atLargest.p99} ÷ ${base.p99} ms = ${growth.toFixed(2)} (≤ ${BUDGET.p99Growth}): ${yes(held.growth)}`,
      `budget: 5xx answers at any size: ${server5xx} (and ${advance.during.non200} non-200 /health during the advance) (= 0): ${yes(held.no5xx)}`,
      `start-up of \`scheme-sim start --data\` to listening, ${fmt(largest)} accounts: ${ms(startup.ms)}; empty store ${ms(startup.emptyMs)}; ratio ${ratio(startup.ms, startup.emptyMs)} (budget ≤ ${BUDGET.startupMs / 1000} s): ${yes(held.startup)}; writing that snapshot took ${fmt(startup.writeMs)} ms`,
      `heap after GC, ${fmt(largest)} accounts: journal ${fmt(heap.journal / 2 ** 20)} MB, memory ${fmt(heap.memory / 2 ** 20)} MB; ratio ${heapRatio.toFixed(2)} (budget ≤ ${BUDGET.heapRatio}): ${yes(held.heap)}`,
      `/health during a ${WORKING_DAYS}-working-day advance (journal, daily reports, 2 webhook subscriptions): p99 ${ms(advance.during.p99)}, max ${ms(advance.during.max)} over ${advance.during.count} requests; ` +
        `no advance running: p99 ${ms(advance.baseline.p99)}, max ${ms(advance.baseline.max)} over ${advance.baseline.count}; ratio of p99s ${ratio(advance.during.p99, advance.baseline.p99)} (budget p99 ≤ ${BUDGET.healthP99Ms} ms): ${yes(held.health)}`,
      `the advance: ${fmt(advance.advanceMs)} ms, status ${advance.advanceStatus}, ${fmt(advance.jobsRun)} jobs; ${advance.webhooksReceived} webhooks received by then; ` +
        `longest event-loop delay ${ms(advance.stalls.longestLoopDelayMs)}, longest GC pause ${ms(advance.stalls.longestGcMs)} (${advance.stalls.majorGc} major, ${advance.stalls.otherGc} other GCs)`,
    );
    return { name: 'store engines (issue 16)', lines, withinBudget: Object.values(held).every(Boolean) };
  } finally {
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await runWhenMain(import.meta.url, run);
