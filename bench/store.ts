// The store engines (issue 16), as ratios measured in one run:
// 1. account create p99 and req/s with 1k, 100k and 1M accounts held, journal and memory engines
//    (and PostgreSQL at STORE_BENCH_PG_SIZES); budgets: journal p99 at the largest size ≤ 2× at the
//    smallest, and no request answers 5xx at any size. The largest journal store starts with a
//    journal just short of compaction and is loaded for COMPACTION_SECONDS, so a whole compaction
//    (the snapshot rewritten in the background) falls inside its measured window: the run says
//    when it started and ended, and the budget does not hold without it. The growth figure's base
//    is the smallest store's p99 over as many seconds, pooled from fresh stores loaded just before
//    the largest (smallestPooled);
// 2. start-up of `scheme-sim start --data FILE` at the largest size until "listening on" ≤ 15 s,
//    against an empty store's start-up;
// 3. heap after a forced GC of a runtime holding the largest size, journal ÷ memory ≤ 1.5;
// 4. /health p99 during a two-year advance with webhook subscriptions ≤ 50 ms (bench/store-advance.ts).
// Stores are seeded from clones of one API-created account (bench/store-rows.ts), not N creates.
// STORE_BENCH_SIZES=1000,100000,1000000 (default), STORE_BENCH_PG_SIZES=1000,100000 (default),
// STORE_BENCH_SECONDS=5 (each load).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type PostgresServer, postgresBinDir, startPostgres } from '../src/harness/postgres-server.ts';
import { createRuntime } from '../src/runtime.ts';
import { type BenchReport, percentile, ratio, runWhenMain } from './lib.ts';
import { timeUntil } from './startup.ts';
import { healthDuringAdvance, WORKING_DAYS } from './store-advance.ts';
import {
  COMPACTION_SECONDS,
  CONNECTIONS,
  type CreateFigures,
  common,
  type Engine,
  type GrowthBase,
  JOURNAL_BEFORE_LOAD,
  measureCreates,
  SECONDS,
  smallestPooled,
} from './store-creates.ts';
import { seedAccounts, templateAccount, writeAccountsSnapshot } from './store-rows.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sizesOf = (v: string | undefined, d: number[]) => (v ? v.split(',').map(Number) : d);
const SIZES = sizesOf(process.env.STORE_BENCH_SIZES, [1_000, 100_000, 1_000_000]);
const PG_SIZES = sizesOf(process.env.STORE_BENCH_PG_SIZES, [1_000, 100_000]);
const BUDGET = { p99Growth: 2, startupMs: 15_000, healthP99Ms: 50, heapRatio: 1.5 };

const fmt = (n: number) => Math.round(n).toLocaleString('en-GB');
const ms = (n: number) => `${n.toFixed(1)} ms`;

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
    let growthBase: GrowthBase | undefined;
    const largestLatencies: number[] = [];
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
        growthBase = await smallestPooled(dir, row, Math.min(...SIZES));
      }
      const t1 = performance.now();
      const journal = await createRuntime({ ...common, data: file });
      creates.push(
        compacting
          ? await measureCreates(
              journal,
              'journal',
              size,
              performance.now() - t1,
              COMPACTION_SECONDS,
              file,
              largestLatencies,
            )
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
    // With the base pooled, both p99s come from each request's unrounded latency; else autocannon's.
    const largestP99 = growthBase ? percentile(largestLatencies, 99) : atLargest.p99;
    const baseP99 = growthBase ? growthBase.p99 : find('journal', smallest)!.p99;
    const growth = largestP99 / baseP99;
    const compaction = atLargest.compaction;
    const compactedInWindow = compaction?.startedAt !== undefined && compaction.endedAt !== undefined;
    const server5xx = creates.reduce((s, c) => s + (c.server5xx ?? 0), 0) + (growthBase?.server5xx ?? 0);
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
        `create, journal, ${fmt(smallest)} accounts, the growth figure's base: ${growthBase.rounds} fresh stores loaded ${SECONDS} s each just before the largest, ${fmt(growthBase.requests)} requests pooled (the largest's window: ${fmt(largestLatencies.length)}); p99 ${ms(growthBase.p99)}; non-2xx ${growthBase.non2xx}, 5xx ${growthBase.server5xx}, errors ${growthBase.errors}`,
        `budget: journal create p99 at ${fmt(largest)} (a whole compaction inside the window: ${compactedInWindow ? 'yes' : 'NO'}) ÷ at ${fmt(smallest)} = ${ms(largestP99)} ÷ ${ms(baseP99)} = ${growth.toFixed(2)} (≤ ${BUDGET.p99Growth}): ${yes(held.growth)}`,
        `  (not budgeted) the ${fmt(largest)} window's p99 ÷ the first ${fmt(smallest)} load's, autocannon's whole milliseconds: ${atLargest.p99} ÷ ${find('journal', smallest)!.p99} ms = ${ratio(atLargest.p99, find('journal', smallest)!.p99)}`,
      );
    else
      lines.push(
        `budget: journal create p99 at ${fmt(largest)} ÷ at ${fmt(smallest)} = ${growth.toFixed(2)} (≤ ${BUDGET.p99Growth}): ${yes(held.growth)}`,
      );
    lines.push(
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
