// The accounts list (issue 30): the seed's 80 accounts (fixtures/accounts.json) listed on one page
// by `scheme-sim start --memory --auth off --seed` (as the fake account API: no token, every
// organisation's records; request journal and CORS on, as by default), by
// json-server 1.0.0-beta.3 serving the same 80 records (`GET /accounts`), and by bare Hono on node
// answering the simulator's page (bench/bare-server.mjs), in alternating rounds of fresh processes.
// Figure: server CPU per answered request (bench/processes.ts says why), and answers per second.
// Budget: the simulator costs at most json-server's CPU per list (≥ 1× json-server).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchReport, runWhenMain } from './lib.ts';
import {
  ACCOUNTS_PATH,
  bareServer,
  type CpuFigure,
  cpuPerRequest,
  jsonServer,
  median,
  ROOT,
  type ServerProcess,
  simServer,
} from './processes.ts';

/**
 * json-server's CPU share of bare Hono's on this list (bare CPU ÷ json-server's), as the runs in
 * bench/RESULTS.md measured it (2026-11-26: 0.75 and 0.78): the list budget as a share of bare
 * Hono, which the CI guard (bench/ratio-guard.ts) holds without running json-server.
 */
export const JSON_SERVER_SHARE_OF_BARE = 0.75;

const ROUNDS = Number(process.env.LISTS_BENCH_ROUNDS ?? 3);
const WARMUP = 1000;
const MEASURED = 3000;
const SIM_PATH = `${ACCOUNTS_PATH}?page[size]=100`;

interface Side {
  name: string;
  start(): Promise<ServerProcess>;
  path: string;
}

export async function run(): Promise<BenchReport> {
  const load0 = loadavg()[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'scheme-sim-lists-bench-'));
  const seed = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'accounts.json'), 'utf8')) as object[];
  const dbFile = join(dir, 'db.json');
  writeFileSync(dbFile, JSON.stringify({ accounts: seed }));
  const answersFile = join(dir, 'answers.json');
  const sides: Side[] = [
    { name: 'simulator', start: () => simServer(['--memory', '--auth', 'off', '--seed']), path: SIM_PATH },
    { name: 'json-server 1.0.0-beta.3', start: () => jsonServer(dbFile), path: '/accounts' },
    { name: 'bare Hono', start: () => bareServer(answersFile), path: ACCOUNTS_PATH },
  ];
  const figures = new Map<string, CpuFigure[]>(sides.map((s) => [s.name, []]));
  const counts = new Map<string, number>();
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (const side of sides) {
        const server = await side.start();
        try {
          const headers: Record<string, string> = {};
          const first = await fetch(`${server.url}${side.path}`, { headers });
          const body = (await first.json()) as { data?: unknown[] } | unknown[];
          const items = Array.isArray(body) ? body : (body.data ?? []);
          counts.set(side.name, items.length);
          // Bare Hono answers the simulator's page, byte for byte the same data.
          if (side.name === 'simulator' && round === 0) writeFileSync(answersFile, JSON.stringify({ list: body }));
          const traffic = { path: side.path, method: 'GET' as const, headers };
          await cpuPerRequest(server, traffic, WARMUP);
          figures.get(side.name)!.push(await cpuPerRequest(server, traffic, MEASURED));
        } finally {
          await server.close();
        }
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const cpu = (name: string) => median(figures.get(name)!.map((f) => f.cpuMicros));
  const sim = cpu('simulator');
  const jsonSrv = cpu('json-server 1.0.0-beta.3');
  const bare = cpu('bare Hono');
  const share = jsonSrv / sim;
  const failed = [...figures.values()].flat().reduce((n, f) => n + f.failed, 0);
  const sameAccounts = [...counts.values()].every((n) => n === seed.length);
  return {
    name: 'lists: 80 accounts, the simulator against json-server 1.0.0-beta.3',
    withinBudget: share >= 1 && failed === 0 && sameAccounts,
    lines: [
      `load average ${loadavg()[0]!.toFixed(2)} (${load0.toFixed(2)} at the start); ${ROUNDS} rounds of fresh processes, ${WARMUP} lists of warm-up then ${MEASURED} measured, 10 connections; accounts per answer: ${sides.map((s) => `${s.name} ${counts.get(s.name)}`).join(', ')}`,
      ...sides.map((s) => {
        const f = figures.get(s.name)!;
        return `${s.name}: ${cpu(s.name).toFixed(0)} µs CPU per list (rounds ${f.map((x) => x.cpuMicros.toFixed(0)).join('/')}), ${median(f.map((x) => x.perSecond)).toFixed(0)} lists/s`;
      }),
      `budget: json-server's CPU per list ÷ the simulator's = ${share.toFixed(2)} (≥ 1): ${share >= 1 ? 'held' : 'NOT HELD'}`,
      `shares of bare Hono (bare CPU ÷ theirs): simulator ${(bare / sim).toFixed(2)}, json-server ${(bare / jsonSrv).toFixed(2)} (the CI guard holds the simulator to half of json-server's, taken as ${JSON_SERVER_SHARE_OF_BARE})`,
      `failed requests: ${failed}`,
    ],
  };
}

await runWhenMain(import.meta.url, run);
