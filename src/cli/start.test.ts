import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedData } from '../../test/support/stored-data.ts';
import { HARBOUR, NORTHWIND } from '../harness/test-runtime.ts';
import { verifyCopResponse } from '../index.ts';

// The real command, as a user runs it: a child process on a free port, stopped by a signal.

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'scheme-sim.mjs');
const LONG = 60_000;

interface Running {
  child: ChildProcess;
  url: string;
  out: () => string;
  /** Milliseconds from spawn to the "listening on" line. */
  startupMs: number;
}

function run(
  args: string[],
  cwd?: string,
  env: NodeJS.ProcessEnv = {},
): {
  child: ChildProcess;
  out: () => string;
  exited: Promise<{ code: number | null; signal: string | null }>;
} {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd,
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.on('close', (code, signal) => r({ code, signal })),
  );
  return { child, out: () => out, exited };
}

/** Starts `scheme-sim start --port 0 ...` and resolves with the URL once the whole banner is out. */
async function start(args: string[], cwd?: string, env: NodeJS.ProcessEnv = {}): Promise<Running> {
  const began = Date.now();
  const { child, out, exited } = run(['start', '--port', '0', ...args], cwd, env);
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setInterval(() => {
      // The banner ends with the token line; stdout may arrive in several chunks.
      const m = /listening on (http:\/\/\S+)[\s\S]*\n {2}(?:token|client): .*\n/.exec(out());
      if (m) {
        clearInterval(timer);
        resolveUrl(m[1]!);
      }
    }, 20);
    void exited.then(({ code }) => {
      clearInterval(timer);
      reject(new Error(`scheme-sim exited with ${code} before listening:\n${out()}`));
    });
  });
  return { child, url, out, startupMs: Date.now() - began };
}

async function stop(r: Running, signal: NodeJS.Signals = 'SIGTERM') {
  const exited = new Promise<number | null>((done) => r.child.on('close', (code) => done(code)));
  r.child.kill(signal);
  return exited;
}

async function token(url: string, client: { client_id: string; client_secret: string } = NORTHWIND): Promise<Response> {
  return fetch(`${url}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
}

async function bearer(url: string, client = NORTHWIND): Promise<Record<string, string>> {
  const res = await token(url, client);
  expect(res.status).toBe(200);
  return {
    authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}`,
    'content-type': 'application/json',
  };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scheme-sim-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scheme-sim start', () => {
  it(
    'serves, stops cleanly on SIGTERM with the store flushed, and keeps everything across a restart',
    async () => {
      const data = join(dir, 'nested', 'sim.json');
      const first = await start(['--data', data]);
      console.log(`scheme-sim start to listening: ${first.startupMs} ms`);
      expect(first.out()).toContain(
        'dev client: 5a1e6c3b-7d2f-4e8a-9b40-6c1d2e3f4a5b (alias northwind-dev) / northwind-dev-secret',
      );
      expect((await fetch(`${first.url}/health`)).status).toBe(200);

      const id = crypto.randomUUID();
      const created = await fetch(`${first.url}/v1/organisation/accounts`, {
        method: 'POST',
        headers: await bearer(first.url),
        body: JSON.stringify({
          data: {
            id,
            organisation_id: NORTHWIND.organisation_id,
            type: 'accounts',
            attributes: { country: 'GB', name: ['Kept Holder'], ...NORTHWIND.bank },
          },
        }),
      });
      expect(created.status).toBe(201);
      // Acknowledged means on disk, before any shutdown.
      expect(((await storedData(data)).collections.accounts![id] as any).attributes.name).toEqual(['Kept Holder']);

      expect(await stop(first)).toBe(0);
      expect(first.out()).toContain('SIGTERM, stopping');

      const second = await start(['--data', data]);
      const read = await fetch(`${second.url}/v1/organisation/accounts/${id}`, { headers: await bearer(second.url) });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { data: { version: number } }).data.version).toBe(0);
      expect(await stop(second, 'SIGINT')).toBe(0);
    },
    LONG,
  );

  it(
    'stops cleanly on a SIGTERM sent the moment it says it is listening',
    async () => {
      // A script may stop the simulator as soon as it reads the first banner line; the handler
      // must already be there, or the default action kills it (exit code null, store not flushed).
      for (let round = 0; round < 5; round++) {
        const { child, out, exited } = run(['start', '--port', '0', '--memory', '--no-seed']);
        child.stdout!.on('data', () => {
          if (/listening on/.test(out()) && child.exitCode === null && !child.killed) child.kill('SIGTERM');
        });
        const { code, signal } = await exited;
        expect({ code, signal }, out()).toEqual({ code: 0, signal: null });
        expect(out()).toContain('SIGTERM, stopping');
      }
    },
    LONG,
  );

  it(
    "prints the pages' URLs, and the dev signing key at a path that exists where it was started",
    async () => {
      // The signing line follows the token line start() waits for.
      const paths = async (sim: Running) => {
        const deadline = Date.now() + 5_000;
        while (!/private key .*\n/.test(sim.out()) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 20));
        return /private key (\S+) \((\S+)\)/.exec(sim.out())!.slice(1);
      };
      // In the checkout: relative, as the docs show them.
      const here = await start(['--memory', '--no-seed']);
      expect(here.out()).toContain(`\n  dashboard: ${here.url}/dashboard\n  docs:   ${here.url}/docs (`);
      expect((await fetch(`${here.url}/`, { headers: { accept: 'text/html' } })).status).toBe(200);
      expect(await paths(here)).toEqual(['fixtures/keys/northwind-dev-signing.pem', 'docs/api.md']);
      expect(await stop(here)).toBe(0);
      // Anywhere else (a project that installed the package elsewhere): absolute, and there.
      const elsewhere = await start(['--memory', '--no-seed'], dir);
      for (const path of await paths(elsewhere)) {
        expect(path.startsWith('/'), path).toBe(true);
        expect(existsSync(path), path).toBe(true);
      }
      expect(await stop(elsewhere)).toBe(0);
    },
    LONG,
  );

  it(
    'refuses to start from a corrupt data file, naming it, and leaves it alone',
    async () => {
      const data = join(dir, 'corrupt.json');
      writeFileSync(data, '{"format": 1, "meta": {');
      const { out, exited } = run(['start', '--port', '0', '--data', data]);
      const { code } = await exited;
      expect(code).not.toBe(0);
      expect(out()).toContain(`${data}: is not a scheme-sim store`);
      expect(readFileSync(data, 'utf8')).toBe('{"format": 1, "meta": {');
    },
    LONG,
  );

  it(
    'takes its clients from --clients FILE',
    async () => {
      const clients = join(dir, 'clients.json');
      writeFileSync(
        clients,
        JSON.stringify([
          { client_id: 'ci-only', client_secret: 'ci-secret-1', organisation_id: HARBOUR.organisation_id },
        ]),
      );
      const sim = await start(['--memory', '--clients', clients]);
      expect(sim.out()).toContain('client: ci-only');
      expect(sim.out()).not.toContain('ci-secret-1');
      expect((await token(sim.url, { client_id: 'ci-only', client_secret: 'ci-secret-1' })).status).toBe(200);
      expect((await token(sim.url)).status).toBe(403);
      expect(await stop(sim)).toBe(0);
    },
    LONG,
  );

  it(
    'signs name-verification answers with keys generated at start, in the --jws-profile asked for',
    async () => {
      const sim = await start(['--memory', '--no-seed', '--jws-profile', '3.1.3']);
      expect(sim.out()).toContain('answers signed (JWS profile 3.1.3');
      const nw = '0015800001041REAAY';
      const jwks = await (await fetch(`${sim.url}/v1/participants/${nw}/jwks.json`)).json();
      const res = await fetch(`${sim.url}/v1/participants/${nw}/open-banking/v3.1/accounts/name-verification`, {
        method: 'POST',
        headers: await bearer(sim.url),
        body: JSON.stringify({
          Data: {
            SchemeName: 'SortCodeAccountNumber',
            AccountType: 'Personal',
            Identification: '40030012345678',
            Name: 'A',
          },
        }),
      });
      expect(res.status).toBe(200);
      const body = new Uint8Array(await res.arrayBuffer());
      expect(await verifyCopResponse(res.headers, body, jwks, { iss: nw, profile: '3.1.3' })).toMatchObject({
        b64: false,
      });
      expect(await stop(sim)).toBe(0);
    },
    LONG,
  );

  it(
    'with --auth off answers /v1 without a token, and starts empty as the fake API unless --seed',
    async () => {
      const sim = await start(['--memory', '--auth', 'off']);
      expect(sim.out()).toContain('auth:   off');
      const res = await fetch(`${sim.url}/v1/organisation/accounts`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data).toEqual([]);
      expect(await stop(sim)).toBe(0);
      // The environment's --no-seed yields to the command line's --seed.
      const seeded = await start(['--memory', '--auth', 'off', '--seed'], undefined, { SCHEME_SIM_NO_SEED: 'true' });
      const page = await fetch(`${seeded.url}/v1/organisation/accounts?page[size]=1000`);
      expect(((await page.json()) as { data: unknown[] }).data).toHaveLength(80);
      expect(await stop(seeded)).toBe(0);
    },
    LONG,
  );

  it(
    'retries a failed webhook on the --retry-schedule given, in milliseconds rather than minutes',
    async () => {
      // A receiver that fails twice, then takes the delivery. By default the retries would come
      // after 5 s and 30 s; with 0,100ms they come at once.
      const calls: string[] = [];
      const receiver = createServer((req, res) => {
        req.resume();
        calls.push(req.url ?? '');
        res.writeHead(calls.length <= 2 ? 503 : 204).end();
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      const port = (receiver.address() as { port: number }).port;
      const sim = await start(['--memory', '--auth', 'off', '--no-seed', '--retry-schedule', '0,100ms/1m']);
      try {
        const post = (path: string, body: object) =>
          fetch(`${sim.url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        const org = '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb';
        const subscribed = await post('/v1/notification/subscriptions', {
          data: {
            id: crypto.randomUUID(),
            organisation_id: org,
            type: 'subscriptions',
            attributes: {
              event_type: 'created',
              record_type: 'accounts',
              callback_transport: 'http',
              callback_uri: `http://127.0.0.1:${port}/hooks`,
            },
          },
        });
        expect(subscribed.status).toBe(201);
        const created = await post('/v1/organisation/accounts', {
          data: {
            id: crypto.randomUUID(),
            organisation_id: org,
            type: 'accounts',
            attributes: { country: 'GB', name: ['A Holder'], ...NORTHWIND.bank },
          },
        });
        expect(created.status).toBe(201);
        const deadline = Date.now() + 10_000;
        while (calls.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        // The default schedule's third try comes 35 s in, far past this wait.
        expect(calls).toHaveLength(3);
      } finally {
        await stop(sim);
        await new Promise((r) => receiver.close(r));
      }
    },
    LONG,
  );

  it(
    'refuses a second simulator on the same --data file, naming it, and frees the file on stop',
    async () => {
      const data = join(dir, 'locked', 'sim.json');
      const first = await start(['--data', data]);
      expect(readFileSync(`${data}.lock`, 'utf8').trim()).toBe(String(first.child.pid));
      const second = run(['start', '--port', '0', '--data', data]);
      expect((await second.exited).code).toBe(2);
      expect(second.out()).toContain(`data file ${data} is in use by another simulator (pid ${first.child.pid})`);
      expect(await stop(first)).toBe(0);
      expect(existsSync(`${data}.lock`)).toBe(false);
    },
    LONG,
  );

  it(
    'rejects bad options with a message and exit code 2',
    async () => {
      for (const [args, message] of [
        [['--auth', 'maybe'], '--auth must be on or off'],
        [['--port', '70000'], '--port must be 0–65535'],
        [['--memory', '--data', join(dir, 'x.json')], '--data, --store and --memory exclude each other'],
        [
          ['--store', 'postgres://u@h/db', '--data', join(dir, 'x.json')],
          '--data, --store and --memory exclude each other',
        ],
        [
          ['--store', 'mysql://u:hunter2@h/db'],
          '--store must be a PostgreSQL URL (postgres://user:pass@host:5432/db), got mysql://u:***@h/db',
        ],
        [['--memory', '--redelivery-interval', 'soon'], '--redelivery-interval must be 0–86400 seconds'],
        [['--memory', '--delivery-retention', '0'], '--delivery-retention must be more than 0 and at most 87600 hours'],
        [['--memory', '--delivery-history', '1.5'], '--delivery-history must be a whole number 0–10000000'],
        [['--memory', '--jws-profile', '3.2'], '--jws-profile must be 3.1.4 or 3.1.3, got 3.2'],
        [['--memory', '--retry-schedule', 'soon'], '--retry-schedule wait 1 "soon" is not a duration'],
      ] as const) {
        const { out, exited } = run(['start', ...args]);
        expect((await exited).code).toBe(2);
        expect(out()).toContain(message);
      }
    },
    LONG,
  );
});
