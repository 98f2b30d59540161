// Sandboxes (src/sandboxes.ts): what a whole world on a running server costs, as `scheme-sim start`
// runs it, each round in fresh processes (bench/processes.ts says why server CPU per request):
// 1. creating one: POST /v1/simulator/sandboxes as the default admin, seeded with the fixtures' 80
//    accounts, one at a time against a listening server, in memory and on the journal store (a temp
//    data file; each sandbox a data file of its own beside it). Budget: p99 ≤ 50 ms, the median of
//    the rounds' p99s. Beside it, the same server's account create sent one at a time between them,
//    and on the journal store a 4 KiB write and fsync in the data folder: the machine's and the
//    disk's own latency in the same run;
// 2. memory with 1,000 idle sandboxes resident (--max-sandboxes 1000): RSS, heap, external and
//    arrayBuffers after forced collections (bench/memory-report.mjs), before and after creating
//    them, and the idle server's CPU. Budget: RSS ≤ 1 GiB in every round. Not budgeted: the same
//    after each sandbox is used once (a token and a read: its listener, router and journal made);
// 3. what routing to a sandbox adds to the server's CPU per request: an account create and a name
//    verification in the default world and in a sandbox (by its `sbx_` token), on one server holding
//    100 sandboxes, alternating default, sandbox, sandbox, default in blocks of 500. Budget: sandbox ÷ default ≤ 1.05,
//    the median of the rounds' ratios. Not budgeted: the default world's requests on a server with
//    no sandbox against one holding 1,000, and the routing decision alone (routeWorld, in process).
// `npm run bench -- sandboxes` or `npx tsx bench/sandboxes.ts`; SANDBOX_BENCH_ROUNDS (default 3).
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { distIsCurrent } from '../bin/dist-current.mjs';
import { NAME_VERIFICATION_BODIES, NAME_VERIFICATION_PATH } from './guard-loads.ts';
import { type BenchReport, percentile, runWhenMain } from './lib.ts';
import {
  ACCOUNTS_PATH,
  accountCreateBody,
  type CpuFigure,
  cpuMicrosOf,
  cpuPerRequest,
  DEV_CLIENT,
  devToken,
  median,
  ROOT,
  type ServerProcess,
  spawnServer,
  type Traffic,
} from './processes.ts';

const ROUNDS = Number(process.env.SANDBOX_BENCH_ROUNDS ?? 3);
/** Sandboxes created one at a time per server and round (after CREATE_WARMUP made and deleted), then deleted. */
const CREATES = 200;
const CREATE_WARMUP = 10;
/** Sandboxes resident for the memory figure, and the server's --max-sandboxes. */
const RESIDENT = 1000;
/** Other sandboxes on the server whose routing is measured. */
const OTHERS = 100;
const WARMUP = 2000;
/** Requests measured per world and kind, in BLOCKS blocks per world (default, sandbox, sandbox, default, …). */
const MEASURED = 4000;
const BLOCKS = 8;
const IDLE_SECONDS = 5;
const BUDGET = { createP99Ms: 50, rssBytes: 2 ** 30, routing: 1.05 };
const SANDBOXES_PATH = '/v1/simulator/sandboxes';
const CREATE_BODY = JSON.stringify({ data: { type: 'sandboxes', attributes: { seed: 'fixtures' } } });
const KINDS = ['create', 'cop'] as const;
type Kind = (typeof KINDS)[number];
const KIND_NAMES: Record<Kind, string> = { create: 'account create', cop: 'name verification' };

const PRELOAD = join(ROOT, 'bench', 'memory-report.mjs');
/** `scheme-sim start --port 0 --max-sandboxes 1000` as the bin runs it, answering SIGUSR2 with its memory. */
function sandboxServer(args: string[]): Promise<ServerProcess> {
  return spawnServer([
    '--import',
    PRELOAD,
    join(ROOT, 'bin', 'scheme-sim.mjs'),
    'start',
    '--port',
    '0',
    '--max-sandboxes',
    String(RESIDENT),
    ...args,
  ]);
}

const MEMORY_LINE = /^memory (\{.*\})$/gm;

/** The server's process.memoryUsage() after forced collections (bench/memory-report.mjs). */
async function memoryOf(server: ServerProcess): Promise<NodeJS.MemoryUsage> {
  const seen = server.output().match(MEMORY_LINE)?.length ?? 0;
  process.kill(server.pid, 'SIGUSR2');
  for (const until = performance.now() + 30_000; performance.now() < until; ) {
    const lines = server.output().match(MEMORY_LINE) ?? [];
    if (lines.length > seen) return JSON.parse(lines[lines.length - 1]!.slice('memory '.length));
    await sleep(20);
  }
  throw new Error('the server did not report its memory within 30 s');
}

interface Made {
  id: string;
  admin: { client_id: string; client_secret: string };
}

async function createSandbox(url: string, token: string): Promise<Made> {
  const res = await fetch(`${url}${SANDBOXES_PATH}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: CREATE_BODY,
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`sandbox create answered ${res.status}: ${text}`);
  const data = JSON.parse(text).data;
  return { id: data.id, admin: data.attributes.clients[0] };
}

async function deleteSandbox(url: string, token: string, id: string): Promise<void> {
  const res = await fetch(`${url}${SANDBOXES_PATH}/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  await res.arrayBuffer();
  if (res.status !== 204) throw new Error(`sandbox delete answered ${res.status}`);
}

/** A token of a sandbox's client (its credentials route the token request): `sbx_…`. */
async function tokenOf(url: string, client: { client_id: string; client_secret: string }): Promise<string> {
  const res = await fetch(`${url}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
  const token = ((await res.json()) as { access_token: string }).access_token;
  if (!token.startsWith('sbx_')) throw new Error(`a sandbox's token does not start with sbx_: ${token.slice(0, 12)}…`);
  return token;
}

/** Milliseconds from sending `init` to the end of its answer, which must have `status`. */
async function timed(url: string, init: RequestInit, status: number): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== status) throw new Error(`${init.method} ${url} answered ${res.status}, not ${status}`);
  return ms;
}

function traffic(kind: Kind, token: string): Traffic {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return kind === 'create'
    ? { path: ACCOUNTS_PATH, method: 'POST', headers, makeBody: accountCreateBody }
    : { path: NAME_VERIFICATION_PATH, method: 'POST', headers, bodies: NAME_VERIFICATION_BODIES };
}

/** Several measurements of one side as one: CPU per answer weighted by answers. */
function pooled(figures: CpuFigure[]): CpuFigure {
  const ok = figures.reduce((n, f) => n + f.ok, 0);
  return {
    cpuMicros: figures.reduce((n, f) => n + f.cpuMicros * f.ok, 0) / Math.max(1, ok),
    clientCpuMicros: figures.reduce((n, f) => n + f.clientCpuMicros * f.ok, 0) / Math.max(1, ok),
    perSecond: median(figures.map((f) => f.perSecond)),
    ok,
    failed: figures.reduce((n, f) => n + f.failed, 0),
  };
}

/** The server's CPU while idle, in % of one core. */
async function idleCpu(server: ServerProcess): Promise<number> {
  const before = cpuMicrosOf(server.pid);
  await sleep(IDLE_SECONDS * 1000);
  return (cpuMicrosOf(server.pid) - before) / (IDLE_SECONDS * 1e4);
}

interface CreateRound {
  ms: number[];
  /** Server CPU per sandbox create, µs. */
  cpuMicros: number;
  accountMs: number[];
  /** On the journal store: a 4 KiB write and fsync in the data file's folder after each create. */
  syncMs: number[];
  deleteMs: number[];
}

const PAGE = Buffer.alloc(4096, 1);

/** Milliseconds to write 4 KiB to a new file in `folder` and fsync it: the disk's own latency. */
function syncLatency(folder: string): number {
  const t0 = performance.now();
  const fd = openSync(join(folder, 'fsync-probe'), 'w');
  try {
    writeSync(fd, PAGE);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return performance.now() - t0;
}

/**
 * Budget 1: CREATES sandboxes one at a time, an account create after each (and, given the data
 * file's folder, a write and fsync there), then every one deleted.
 */
async function createRound(args: string[], folder?: string): Promise<CreateRound> {
  const server = await sandboxServer(args);
  try {
    const token = await devToken(server.url);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const account = () =>
      timed(`${server.url}${ACCOUNTS_PATH}`, { method: 'POST', headers, body: accountCreateBody() }, 201);
    for (let i = 0; i < CREATE_WARMUP; i++) {
      const made = await createSandbox(server.url, token);
      await account();
      await deleteSandbox(server.url, token, made.id);
    }
    const round: CreateRound = { ms: [], cpuMicros: 0, accountMs: [], syncMs: [], deleteMs: [] };
    const made: Made[] = [];
    let cpu = 0;
    for (let i = 0; i < CREATES; i++) {
      const cpu0 = cpuMicrosOf(server.pid);
      const t0 = performance.now();
      made.push(await createSandbox(server.url, token));
      round.ms.push(performance.now() - t0);
      cpu += cpuMicrosOf(server.pid) - cpu0;
      round.accountMs.push(await account());
      if (folder) round.syncMs.push(syncLatency(folder));
    }
    round.cpuMicros = cpu / CREATES;
    for (const m of made) {
      const t0 = performance.now();
      await deleteSandbox(server.url, token, m.id);
      round.deleteMs.push(performance.now() - t0);
    }
    return round;
  } finally {
    await server.close();
  }
}

/** Each kind's CPU per request in the default world: WARMUP requests, then MEASURED. */
async function defaultWorld(server: ServerProcess, token: string): Promise<Record<Kind, CpuFigure>> {
  const out = {} as Record<Kind, CpuFigure>;
  for (const kind of KINDS) {
    await cpuPerRequest(server, traffic(kind, token), WARMUP);
    out[kind] = await cpuPerRequest(server, traffic(kind, token), MEASURED);
  }
  return out;
}

interface RoutingRound {
  default: Record<Kind, CpuFigure>;
  sandbox: Record<Kind, CpuFigure>;
}

/** Budget 3: on a server holding OTHERS sandboxes, the default world against one of them, alternating. */
async function routingRound(): Promise<RoutingRound> {
  const server = await sandboxServer(['--memory']);
  try {
    const token = await devToken(server.url);
    const made: Made[] = [];
    for (let i = 0; i < OTHERS; i++) made.push(await createSandbox(server.url, token));
    const sbx = await tokenOf(server.url, made[Math.floor(OTHERS / 2)]!.admin);
    const round = { default: {}, sandbox: {} } as RoutingRound;
    for (const kind of KINDS) {
      const def = traffic(kind, token);
      const box = traffic(kind, sbx);
      await cpuPerRequest(server, def, WARMUP);
      await cpuPerRequest(server, box, WARMUP);
      // Short blocks in the order d s s d, repeated: a collection or a neighbour's burst lands on
      // both sides alike rather than on one long block.
      const d: CpuFigure[] = [];
      const s: CpuFigure[] = [];
      for (let block = 0; block < BLOCKS / 2; block++) {
        d.push(await cpuPerRequest(server, def, MEASURED / BLOCKS));
        s.push(await cpuPerRequest(server, box, MEASURED / BLOCKS));
        s.push(await cpuPerRequest(server, box, MEASURED / BLOCKS));
        d.push(await cpuPerRequest(server, def, MEASURED / BLOCKS));
      }
      round.default[kind] = pooled(d);
      round.sandbox[kind] = pooled(s);
    }
    return round;
  } finally {
    await server.close();
  }
}

interface ResidentRound {
  before: NodeJS.MemoryUsage;
  after: NodeJS.MemoryUsage;
  /** After a token request and an account read in each sandbox. */
  used: NodeJS.MemoryUsage;
  createSeconds: number;
  idleBefore: number;
  idleAfter: number;
  default: Record<Kind, CpuFigure>;
}

/** Budget 2: RESIDENT idle sandboxes on one server, then each used once; then its default world's requests. */
async function residentRound(): Promise<ResidentRound> {
  const server = await sandboxServer(['--memory']);
  try {
    const token = await devToken(server.url);
    const before = await memoryOf(server);
    const idleBefore = await idleCpu(server);
    const t0 = performance.now();
    const made: Made[] = [];
    for (let i = 0; i < RESIDENT; i++) made.push(await createSandbox(server.url, token));
    const createSeconds = (performance.now() - t0) / 1000;
    const after = await memoryOf(server);
    const idleAfter = await idleCpu(server);
    // Each one used once: its request listener made, its router compiled, its journal written.
    for (const m of made) {
      const sbx = await tokenOf(server.url, m.admin);
      await timed(`${server.url}${ACCOUNTS_PATH}?page[size]=1`, { headers: { authorization: `Bearer ${sbx}` } }, 200);
    }
    const used = await memoryOf(server);
    return { before, after, used, createSeconds, idleBefore, idleAfter, default: await defaultWorld(server, token) };
  } finally {
    await server.close();
  }
}

/** The default world's requests on a server with no sandbox. */
async function emptyRound(): Promise<Record<Kind, CpuFigure>> {
  const server = await sandboxServer(['--memory']);
  try {
    return await defaultWorld(server, await devToken(server.url));
  } finally {
    await server.close();
  }
}

/**
 * The routing decision alone: nanoseconds per routeWorld call for a default-world bearer token
 * (no sandbox, then RESIDENT) and a sandbox's, in this process on the code the bin runs.
 */
async function routeWorldCost(built: boolean): Promise<{ empty: number; full: number; sbx: number }> {
  const { createRuntime } = (await import(
    built ? '../dist/runtime.js' : '../src/runtime.ts'
  )) as typeof import('../src/runtime.ts');
  const runtime = await createRuntime({ memory: true, scheduledReports: false, sandboxes: { maxSandboxes: RESIDENT } });
  try {
    const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    const token = async (app: typeof runtime.app, authorization: string) => {
      const res = await app.request('/v1/oauth2/token', {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      });
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const own = `Bearer ${await token(runtime.app, basic(DEV_CLIENT.id, DEV_CLIENT.secret))}`;
    const perCall = (authorization: string) => {
      const calls = 1_000_000;
      let routed = 0;
      for (let i = 0; i < calls / 10; i++) routed += runtime.sandboxes.routeWorld(ACCOUNTS_PATH, authorization) ? 1 : 0;
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) routed += runtime.sandboxes.routeWorld(ACCOUNTS_PATH, authorization) ? 1 : 0;
      const ns = ((performance.now() - t0) * 1e6) / calls;
      return routed < 0 ? Number.NaN : ns;
    };
    const empty = perCall(own);
    let last: Awaited<ReturnType<typeof runtime.sandboxes.create>> | undefined;
    for (let i = 0; i < RESIDENT; i++) last = await runtime.sandboxes.create({ seed: 'none' });
    const admin = last!.clients[0]!;
    const sbx = `Bearer ${await token(last!.app, basic(admin.client_id, admin.client_secret))}`;
    if (!sbx.startsWith('Bearer sbx_')) throw new Error('a sandbox token does not start with sbx_');
    return { empty, full: perCall(own), sbx: perCall(sbx) };
  } finally {
    await runtime.close();
  }
}

export async function run(): Promise<BenchReport> {
  const load0 = loadavg()[0]!;
  const built = distIsCurrent(ROOT);
  const dir = mkdtempSync(join(tmpdir(), 'scheme-sim-sandboxes-bench-'));
  const creates = { memory: [] as CreateRound[], journal: [] as CreateRound[] };
  const routing: RoutingRound[] = [];
  const resident: ResidentRound[] = [];
  const empty: Array<Record<Kind, CpuFigure>> = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      creates.memory.push(await createRound(['--memory']));
      // A new data file each round: every round starts from an empty store and no sandbox folder.
      creates.journal.push(await createRound(['--data', join(dir, `sim-${round}.json`)], dir));
      // The three servers of budgets 2 and 3 in turn, the order reversed every other round.
      const steps = [
        async () => routing.push(await routingRound()),
        async () => resident.push(await residentRound()),
        async () => empty.push(await emptyRound()),
      ];
      for (const step of round % 2 === 0 ? steps : steps.reverse()) await step();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const routeNs = await routeWorldCost(built);

  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  const kib = (b: number) => `${(b / 1024).toFixed(0)} KiB`;
  const us = (xs: number[]) => xs.map((x) => x.toFixed(0)).join('/');
  const lines = [
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )} (${load0.toFixed(2)} at the start) on 2 cores; ${ROUNDS} rounds of fresh \`scheme-sim start\` processes (${built ? 'the built dist/, as the bin runs it' : 'the sources through tsx: dist/ not current'})`,
  ];
  let withinBudget = true;

  // 1. Creating a sandbox.
  for (const engine of ['memory', 'journal'] as const) {
    const rounds = creates[engine];
    const p99s = rounds.map((r) => percentile(r.ms, 99));
    const accountP99s = rounds.map((r) => percentile(r.accountMs, 99));
    const p99 = median(p99s);
    const held = p99 <= BUDGET.createP99Ms;
    withinBudget &&= held;
    lines.push(
      `sandbox create (seed fixtures: 80 accounts), ${engine === 'memory' ? 'in memory' : 'journal store (a data file each)'}, ${CREATES} one at a time per round after ${CREATE_WARMUP} of warm-up: p50 ${ms(median(rounds.map((r) => percentile(r.ms, 50))))}, p99 ${ms(p99)} (rounds p50 ${rounds.map((r) => percentile(r.ms, 50).toFixed(1)).join('/')}, p99 ${p99s.map((v) => v.toFixed(1)).join('/')}, max ${rounds.map((r) => Math.max(...r.ms).toFixed(1)).join('/')} ms); server CPU ${ms(median(rounds.map((r) => r.cpuMicros)) / 1000)} per create (rounds ${rounds.map((r) => (r.cpuMicros / 1000).toFixed(1)).join('/')})`,
      `  the same server's account create, one at a time between them: p50 ${ms(median(rounds.map((r) => percentile(r.accountMs, 50))))}, p99 ${ms(median(accountP99s))} (rounds p99 ${accountP99s.map((v) => v.toFixed(1)).join('/')}); sandbox create p99 ÷ account create p99 ${(p99 / median(accountP99s)).toFixed(1)}; deleting them: p50 ${ms(median(rounds.map((r) => percentile(r.deleteMs, 50))))}, p99 ${ms(median(rounds.map((r) => percentile(r.deleteMs, 99))))}`,
      ...(engine === 'journal'
        ? [
            `  the disk's own latency, a 4 KiB write and fsync in the data folder after each create: p50 ${ms(median(rounds.map((r) => percentile(r.syncMs, 50))))}, p99 ${ms(median(rounds.map((r) => percentile(r.syncMs, 99))))} (rounds p99 ${rounds.map((r) => percentile(r.syncMs, 99).toFixed(1)).join('/')}); a sandbox's new store is made durable in sequence (its journal file, its snapshot, its folder, its first commit)`,
          ]
        : []),
      `budget: sandbox create p99 ${engine === 'memory' ? 'in memory' : 'on the journal store'}, median of the rounds = ${ms(p99)} (≤ ${BUDGET.createP99Ms} ms): ${held ? 'held' : 'NOT HELD'}`,
    );
  }

  // 2. Memory with RESIDENT idle sandboxes.
  const field = (k: keyof NodeJS.MemoryUsage, when: 'before' | 'after' | 'used') => resident.map((r) => r[when][k]);
  const per = (k: keyof NodeJS.MemoryUsage) => median(resident.map((r) => (r.after[k] - r.before[k]) / RESIDENT));
  const inRounds = (k: keyof NodeJS.MemoryUsage, when: 'after' | 'used') =>
    field(k, when)
      .map((v) => (v / 2 ** 20).toFixed(0))
      .join('/');
  const memLine = (k: keyof NodeJS.MemoryUsage, name: string) =>
    `${name} ${mib(median(field(k, 'before')))} → ${mib(median(field(k, 'after')))} (rounds ${inRounds(k, 'after')}), ${kib(per(k))} a sandbox`;
  const usedMore = (k: keyof NodeJS.MemoryUsage) =>
    kib(median(resident.map((r) => (r.used[k] - r.after[k]) / RESIDENT)));
  const rssMax = Math.max(...field('rss', 'after'));
  const rssHeld = rssMax <= BUDGET.rssBytes;
  withinBudget &&= rssHeld;
  lines.push(
    `${RESIDENT.toLocaleString('en-GB')} idle sandboxes resident (memory store, seed fixtures, --max-sandboxes ${RESIDENT}), after forced collections, before → after: ${memLine('rss', 'RSS')}; ${memLine('heapUsed', 'heap used')}; ${memLine('external', 'external')}; ${memLine('arrayBuffers', 'of which arrayBuffers')}; created in ${resident.map((r) => r.createSeconds.toFixed(1)).join('/')} s`,
    `  (not budgeted) each then used once (a token request and a one-account page): RSS ${mib(median(field('rss', 'used')))} (rounds ${inRounds('rss', 'used')}), heap used ${mib(median(field('heapUsed', 'used')))}, external ${mib(median(field('external', 'used')))}; a sandbox ${usedMore('rss')} RSS and ${usedMore('heapUsed')} heap more than idle`,
    `  idle server CPU over ${IDLE_SECONDS} s: ${median(resident.map((r) => r.idleBefore)).toFixed(2)} % of a core with no sandbox, ${median(resident.map((r) => r.idleAfter)).toFixed(2)} % with ${RESIDENT.toLocaleString('en-GB')} (rounds ${resident.map((r) => r.idleAfter.toFixed(2)).join('/')})`,
    `budget: RSS with ${RESIDENT.toLocaleString('en-GB')} sandboxes, the largest of the rounds = ${mib(rssMax)} (≤ ${mib(BUDGET.rssBytes)}): ${rssHeld ? 'held' : 'NOT HELD'}`,
  );

  // 3. Routing.
  const routingRatios: string[] = [];
  for (const kind of KINDS) {
    const d = routing.map((r) => r.default[kind].cpuMicros);
    const s = routing.map((r) => r.sandbox[kind].cpuMicros);
    const ratios = routing.map((r) => r.sandbox[kind].cpuMicros / r.default[kind].cpuMicros);
    const over = median(ratios);
    const held = over <= BUDGET.routing;
    withinBudget &&= held;
    routingRatios.push(`${KIND_NAMES[kind]} ${over.toFixed(3)}${held ? '' : ' NOT HELD'}`);
    lines.push(
      `${KIND_NAMES[kind]}, server holding ${OTHERS} sandboxes: default world ${median(d).toFixed(0)} µs CPU (rounds ${us(d)}), in a sandbox by its sbx_ token ${median(s).toFixed(0)} µs (rounds ${us(s)}); sandbox ÷ default per round ${ratios.map((x) => x.toFixed(3)).join('/')}`,
    );
  }
  lines.push(
    `budget: sandbox ÷ default server CPU, median of the rounds (≤ ${BUDGET.routing}): ${routingRatios.join(', ')}: ${routingRatios.some((x) => x.includes('NOT')) ? 'NOT HELD' : 'held'}`,
  );
  for (const kind of KINDS) {
    const none = empty.map((r) => r[kind].cpuMicros);
    const full = resident.map((r) => r.default[kind].cpuMicros);
    // The idle server's CPU (the sandboxes' clock timers) over the measured seconds, per request.
    const net = resident.map((r) => r.default[kind].cpuMicros - (r.idleAfter * 1e4) / r.default[kind].perSecond);
    lines.push(
      `  (not budgeted) default world's ${KIND_NAMES[kind]}, no sandbox ${median(none).toFixed(0)} µs (rounds ${us(none)}), ${RESIDENT.toLocaleString('en-GB')} sandboxes live ${median(full).toFixed(0)} µs (rounds ${us(full)}): ${(median(full) / median(none)).toFixed(3)}×; less the idle server's CPU over the same seconds ${median(net).toFixed(0)} µs (rounds ${us(net)}): ${(median(net) / median(none)).toFixed(3)}×`,
    );
  }
  lines.push(
    `  (not budgeted) the routing decision alone (Sandboxes.routeWorld in process, a bearer token on ${ACCOUNTS_PATH}): default world's token ${routeNs.empty.toFixed(0)} ns with no sandbox, ${routeNs.full.toFixed(0)} ns with ${RESIDENT.toLocaleString('en-GB')}; a sbx_ token ${routeNs.sbx.toFixed(0)} ns`,
  );
  const failed = [
    ...routing.flatMap((r) => [...Object.values(r.default), ...Object.values(r.sandbox)]),
    ...resident.flatMap((r) => Object.values(r.default)),
    ...empty.flatMap((r) => Object.values(r)),
  ].reduce((n, f) => n + f.failed, 0);
  withinBudget &&= failed === 0;
  lines.push(`failed requests (errors, timeouts, non-2xx) under load: ${failed}`);
  return { name: 'sandboxes: create, 1,000 resident, routing', lines, withinBudget };
}

await runWhenMain(import.meta.url, run);
