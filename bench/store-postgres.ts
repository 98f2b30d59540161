// The PostgreSQL engine beside the journal engine (issue 46), in alternating rounds, each engine on
// a fresh store every round (PostgreSQL: a fresh server started by the bench in a temp folder, and a
// fresh database on it for each step; removed afterwards):
// 1. creates: account create req/s and p99 with 1k accounts held, 16 connections; budget: the
//    PostgreSQL engine's req/s ≥ 0.8× the journal's (median of the rounds);
// 2. a list: GET of a 100-account page, req/s (served from memory by both; not budgeted);
// 3. a two-year advance (505 working days, daily reports, 2 webhook subscriptions:
//    bench/store-advance.ts), its time; budget ≤ 2× the journal's (median of the rounds);
// 4. start-up of `scheme-sim start` holding 1M accounts until "listening on"; budget ≤ 30 s for
//    the PostgreSQL engine in every round (the journal's beside it, for scale).
// STORE_PG_ROUNDS=3, STORE_PG_STARTUP_ROWS=1000000, STORE_BENCH_SECONDS=5 (each load).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type PostgresServer, postgresBinDir, startPostgres } from '../src/harness/postgres-server.ts';
import { requestListener } from '../src/node/server.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import { type BenchReport, load, ratio, runWhenMain, serveListener } from './lib.ts';
import { median } from './processes.ts';
import { timeUntil } from './startup.ts';
import { healthDuringAdvance } from './store-advance.ts';
import { CONNECTIONS, common, measureCreates, SECONDS } from './store-creates.ts';
import { SEEDED_FROM, type StoredAccount, seedAccounts, templateAccount, writeAccountsSnapshot } from './store-rows.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.STORE_PG_ROUNDS ?? 3);
const STARTUP_ROWS = Number(process.env.STORE_PG_STARTUP_ROWS ?? 1_000_000);
const HELD = 1_000;
const BUDGET = { createRatio: 0.8, advanceRatio: 2, startupMs: 30_000 };

type Engine = 'journal' | 'postgres';
interface RoundFigures {
  createRps: number;
  createP99: number;
  createErrors: number;
  listRps: number;
  advanceMs: number;
  advanceStatus: number;
  startupMs: number;
}

/** Where one step of one round keeps its store: a new file, or a new database on the round's server. */
type Place = () => Promise<{ data: string } | { postgres: string }>;

/** GETs a 100-account page for SECONDS (after a 1 s warm-up); answers per second. */
async function measureList(rt: Runtime): Promise<number> {
  const served = await serveListener(requestListener(rt));
  try {
    const url = `${served.url}/v1/organisation/accounts?page[size]=100`;
    await load({ url, connections: CONNECTIONS, durationSeconds: 1 });
    const result = await load({ url, connections: CONNECTIONS, durationSeconds: SECONDS });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`list: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result.requestsPerSecond;
  } finally {
    await served.close();
  }
}

/**
 * A PostgreSQL database holding `n` clones of the template: the first through the engine (which
 * makes the tables and the store's meta), the others by one INSERT … SELECT on the server, shaped
 * as cloneAccount shapes them (a new id, the next account number), in order.
 */
async function seedDatabase(url: string, template: StoredAccount, n: number): Promise<void> {
  const rt = await createRuntime({ ...common, postgres: url });
  await seedAccounts(rt, template, 1);
  await rt.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO scheme_sim_c_accounts (id, row)
       SELECT u.id, jsonb_set(jsonb_set($1::jsonb, '{id}', to_jsonb(u.id)),
                              '{attributes,account_number}', to_jsonb(($2::bigint + g)::text))
         FROM generate_series(1, $3::int - 1) AS g, LATERAL (SELECT md5('seed-' || g)::uuid::text AS id) AS u
        ORDER BY g`,
      [JSON.stringify(template), SEEDED_FROM, n],
    );
  } finally {
    await client.end();
  }
}

const startArgs = (store: string[]) => [
  join(root, 'bin', 'scheme-sim.mjs'),
  'start',
  ...store,
  '--port',
  '0',
  '--auth',
  'off',
];

async function round(engine: Engine, dir: string, n: number, template: StoredAccount): Promise<RoundFigures> {
  let server: PostgresServer | undefined;
  const files: string[] = [];
  try {
    if (engine === 'postgres') server = await startPostgres();
    const place: Place = async () => {
      if (server) return { postgres: await server.createDatabase() };
      files.push(join(dir, `${engine}-${n}-${files.length}.json`));
      return { data: files.at(-1)! };
    };

    const rt = await createRuntime({ ...common, ...(await place()) });
    const t0 = performance.now();
    await seedAccounts(rt, template, HELD);
    const listRps = await measureList(rt);
    const creates = await measureCreates(rt, engine, HELD, performance.now() - t0); // closes rt

    const advance = await healthDuringAdvance(dir, await place());

    const big = await place();
    if ('postgres' in big) await seedDatabase(big.postgres, template, STARTUP_ROWS);
    else await writeAccountsSnapshot(big.data, template, STARTUP_ROWS);
    const store = 'postgres' in big ? ['--store', big.postgres] : ['--data', big.data];
    const startupMs = await timeUntil(startArgs(store), /listening on http/, 300_000);
    return {
      createRps: creates.requestsPerSecond,
      createP99: creates.p99,
      createErrors: creates.errors + creates.non2xx,
      listRps,
      advanceMs: advance.advanceMs,
      advanceStatus: advance.advanceStatus,
      startupMs,
    };
  } finally {
    await server?.stop();
    // A million accounts' snapshot is most of a gigabyte: gone before the next round writes another.
    for (const file of files) for (const f of [file, `${file}.journal`]) rmSync(f, { force: true });
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-GB');
const spread = (xs: number[], f: (n: number) => string) => `median ${f(median(xs))} (${xs.map(f).join(', ')})`;

export async function run(): Promise<BenchReport> {
  if (!postgresBinDir())
    return {
      name: 'PostgreSQL engine beside the journal (issue 46)',
      lines: ['no PostgreSQL binaries under /usr/lib/postgresql: not measured'],
      withinBudget: false,
    };
  const dir = mkdtempSync(join(tmpdir(), 'scheme-sim-bench-store-pg-'));
  const load0 = loadavg()[0]!;
  const figures: Record<Engine, RoundFigures[]> = { journal: [], postgres: [] };
  try {
    const { row } = await templateAccount();
    for (let r = 0; r < ROUNDS; r++) {
      const order: Engine[] = r % 2 === 0 ? ['journal', 'postgres'] : ['postgres', 'journal'];
      for (const engine of order) figures[engine].push(await round(engine, dir, r, row));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const j = figures.journal;
  const p = figures.postgres;
  const of = (xs: RoundFigures[], k: keyof RoundFigures) => xs.map((x) => x[k]);
  const createRatio = median(of(p, 'createRps')) / median(of(j, 'createRps'));
  const advanceRatio = median(of(p, 'advanceMs')) / median(of(j, 'advanceMs'));
  const worstStartup = Math.max(...of(p, 'startupMs'));
  const failures = [...j, ...p].reduce((s, x) => s + x.createErrors + (x.advanceStatus === 200 ? 0 : 1), 0);
  const held = {
    create: createRatio >= BUDGET.createRatio,
    advance: advanceRatio <= BUDGET.advanceRatio,
    startup: worstStartup <= BUDGET.startupMs,
    failures: failures === 0,
  };
  const yes = (b: boolean) => (b ? 'held' : 'NOT HELD');
  const perRound = (k: keyof RoundFigures) => p.map((x, i) => ratio(x[k], j[i]![k])).join(', ');
  const ms = (n: number) => `${fmt(n)} ms`;
  const lines = [
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )} (${load0.toFixed(2)} at the start) on ${cpus().length} cores; ${ROUNDS} rounds, engines alternating, ` +
      `a fresh store each step (PostgreSQL: a fresh server each round, a fresh database each step); ${CONNECTIONS} connections, ${SECONDS} s per load`,
  ];
  for (const [engine, xs] of [
    ['journal', j],
    ['postgres', p],
  ] as const)
    lines.push(
      `${engine}: create ${spread(of(xs, 'createRps'), fmt)} req/s, p99 ${spread(of(xs, 'createP99'), String)} ms with ${fmt(HELD)} accounts; ` +
        `list of 100 ${spread(of(xs, 'listRps'), fmt)} req/s; two-year advance ${spread(of(xs, 'advanceMs'), ms)}; ` +
        `start-up with ${fmt(STARTUP_ROWS)} accounts ${spread(of(xs, 'startupMs'), ms)}`,
    );
  lines.push(
    `budget: postgres create req/s ÷ journal's, medians ${createRatio.toFixed(2)} (rounds ${perRound('createRps')}) (≥ ${BUDGET.createRatio}): ${yes(held.create)}`,
    `  (not budgeted) create p99 postgres ÷ journal, rounds ${perRound('createP99')}; list req/s postgres ÷ journal, rounds ${perRound('listRps')}`,
    `budget: postgres two-year advance ÷ journal's, medians ${advanceRatio.toFixed(2)} (rounds ${perRound('advanceMs')}) (≤ ${BUDGET.advanceRatio}): ${yes(held.advance)}`,
    `budget: postgres start-up with ${fmt(STARTUP_ROWS)} accounts, slowest round ${ms(worstStartup)} (≤ ${BUDGET.startupMs / 1000} s): ${yes(held.startup)}; ÷ journal's, rounds ${perRound('startupMs')}`,
    `budget: failed creates and advances ${failures} (= 0): ${yes(held.failures)}`,
  );
  return {
    name: 'PostgreSQL engine beside the journal (issue 46)',
    lines,
    withinBudget: Object.values(held).every(Boolean),
  };
}

await runWhenMain(import.meta.url, run);
