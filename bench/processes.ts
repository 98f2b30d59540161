// Servers in child processes, measured by the CPU they spend per request (Linux: /proc/PID/stat).
//
// On a shared machine a server's throughput says as much about its neighbours as about itself, and
// a load generator in the same process charges its own work to both sides of a ratio. The CPU time
// the server process itself spends per answered request moves far less with the machine's load, so
// the process benchmarks (create, lists, the CI guard) compare that: a fixed number of requests
// after a fixed warm-up (the JIT has compiled the hot path whatever the machine's speed), a fresh
// process per round, rounds alternating between the sides being compared.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { validAttributes } from '../src/harness/malformed-request-builders.ts';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The development client of fixtures/clients.json: its organisation holds the seed accounts. */
export const DEV_CLIENT = { id: 'northwind-dev', secret: 'northwind-dev-secret' };
export const DEV_ORGANISATION = '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb';
export const ACCOUNTS_PATH = '/v1/organisation/accounts';

let ticksPerSecond: number | undefined;

/**
 * CPU time (user + system) a process has used so far, in microseconds: the sum of its threads'
 * time on a CPU from /proc/PID/task/TID/schedstat (nanoseconds), or, where that is missing,
 * /proc/PID/stat's utime + stime (clock ticks, 10 ms each: too coarse for a few thousand
 * requests of 50 µs).
 */
export function cpuMicrosOf(pid: number): number {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    if (ns > 0) return ns / 1000;
  } catch {
    // a thread ended while read, or no schedstat: the coarse figure below
  }
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  // Fields after the command name (which may hold spaces, hence the last ')'): utime is the 12th, stime the 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond;
}

/**
 * CPU time the process's main thread (its event loop, for Node) has used so far, in microseconds,
 * from /proc/PID/task/PID/schedstat; undefined where that is missing (not Linux).
 */
export function mainThreadCpuMicrosOf(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return undefined;
  }
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** Milliseconds from spawn to its "listening on" line. */
  startMs: number;
  /** Everything it printed so far. */
  output(): string;
  close(): Promise<void>;
}

/** Spawns `node ARGS` and resolves once it prints `listening on http://…` (or what `readyUrl` finds). */
export function spawnServer(
  args: string[],
  options: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
    /** The server's URL once its output says it is ready (another server's own words). */
    readyUrl?: (output: string) => string | undefined;
  } = {},
): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child: ChildProcess = spawn(process.execPath, args, {
      cwd: options.cwd ?? ROOT,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')}: not listening within ${(options.timeoutMs ?? 60_000) / 1000} s:\n${out}`));
    }, options.timeoutMs ?? 60_000);
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const onData = (d: Buffer) => {
      out += d.toString();
      const url = options.readyUrl ? options.readyUrl(out) : /listening on (http:\/\/[^\s/]+)/.exec(out)?.[1];
      if (!url || ready) return;
      ready = true;
      clearTimeout(timer);
      resolve({
        url,
        pid: child.pid!,
        startMs: performance.now() - t0,
        output: () => out,
        close: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      if (ready) return;
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code}) before listening:\n${out}`));
    });
  });
}

/**
 * `scheme-sim start --port 0` (plus `args`) as the package's bin runs it (dist/ when built). Test-only
 * preloads, outside src (the product has no such flags): with SCHEME_SIM_BENCH_SLOW_CREATE_FACTOR
 * set, bench/slow-create.mjs makes every create cost that many times its CPU (the proof that the CI
 * ratio guard fails on a slower create); with `signAfresh`, bench/sign-afresh.mjs turns the
 * name-verification signature cache off.
 */
export function simServer(
  args: string[] = ['--memory'],
  env: NodeJS.ProcessEnv = {},
  options: { signAfresh?: boolean } = {},
): Promise<ServerProcess> {
  const merged = { ...process.env, ...env };
  const preload = (file: string) => ['--import', join(ROOT, 'bench', file)];
  const preloads = [
    ...(merged.SCHEME_SIM_BENCH_SLOW_CREATE_FACTOR ? preload('slow-create.mjs') : []),
    ...(options.signAfresh ? preload('sign-afresh.mjs') : []),
  ];
  return spawnServer([...preloads, join(ROOT, 'bin', 'scheme-sim.mjs'), 'start', '--port', '0', ...args], {
    env: merged,
  });
}

/**
 * json-server 1.0.0-beta.3 (a devDependency) serving `dbFile` on a free port, with no file watching
 * (NODE_ENV=production): it cannot be told port 0, so a free port is found first. It serves
 * ./public of its working directory as well, so it runs in the file's folder, with one (empty).
 */
export async function jsonServer(dbFile: string): Promise<ServerProcess> {
  const port = await freePort();
  mkdirSync(join(dirname(dbFile), 'public'), { recursive: true });
  return spawnServer(
    [join(ROOT, 'node_modules', 'json-server', 'lib', 'bin.js'), dbFile, '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: dirname(dbFile),
      env: { ...process.env, NODE_ENV: 'production' },
      readyUrl: (out) => (out.includes('JSON Server started') ? `http://127.0.0.1:${port}` : undefined),
    },
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The bare Hono baseline (bench/bare-server.mjs) on node, with the answers it should give. */
export function bareServer(answersFile?: string, options: { sign?: boolean } = {}): Promise<ServerProcess> {
  return spawnServer([
    join(ROOT, 'bench', 'bare-server.mjs'),
    ...(answersFile ? [answersFile] : []),
    ...(options.sign ? ['--sign'] : []),
  ]);
}

/** A bearer token of the development client. */
export async function devToken(url: string): Promise<string> {
  const res = await fetch(`${url}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${DEV_CLIENT.id}:${DEV_CLIENT.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

let accountNumber = 20_000_000;

/** A create body Form3's rules accept for the development client's organisation: a new id and number each time. */
export function accountCreateBody(): string {
  return JSON.stringify({
    data: {
      id: randomUUID(),
      organisation_id: DEV_ORGANISATION,
      type: 'accounts',
      attributes: { ...validAttributes(), account_number: String(accountNumber++), account_classification: 'Personal' },
    },
  });
}

export interface Traffic {
  path: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Bodies used round robin, or a fresh one per request. */
  bodies?: string[];
  makeBody?: () => string;
}

export interface CpuFigure {
  /** Server CPU per 2xx answer, microseconds. */
  cpuMicros: number;
  /** This process's CPU (the load generator's, when it does nothing else meanwhile) per 2xx answer. */
  clientCpuMicros: number;
  /** Answers per second (wall time: the machine's load shows here, not in cpuMicros). */
  perSecond: number;
  ok: number;
  failed: number;
}

/** Sends `amount` requests on `connections` sockets and charges the server's CPU to its 2xx answers. */
export async function cpuPerRequest(
  server: ServerProcess,
  traffic: Traffic,
  amount: number,
  connections = 10,
): Promise<CpuFigure> {
  const before = cpuMicrosOf(server.pid);
  const clientBefore = process.cpuUsage();
  const t0 = performance.now();
  const result = await autocannon({
    url: `${server.url}${traffic.path}`,
    method: traffic.method,
    headers: traffic.headers ?? {},
    connections,
    amount,
    ...(traffic.bodies ? { requests: traffic.bodies.map((body) => ({ body })) } : {}),
    ...(traffic.makeBody
      ? { requests: [{ setupRequest: (req: object) => ({ ...req, body: traffic.makeBody?.() }) }] }
      : {}),
  });
  const seconds = (performance.now() - t0) / 1000;
  const used = cpuMicrosOf(server.pid) - before;
  const client = process.cpuUsage(clientBefore);
  const ok = (result as unknown as Record<string, number>)['2xx'] ?? 0;
  return {
    cpuMicros: used / Math.max(1, ok),
    clientCpuMicros: (client.user + client.system) / Math.max(1, ok),
    perSecond: ok / seconds,
    ok,
    failed: result.errors + result.timeouts + result.non2xx,
  };
}

export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
