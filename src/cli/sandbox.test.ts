// `scheme-sim sandbox` and --sandbox against a fake simulator: a node:http server answering the
// sandbox routes, the token route and the clock as /work/spec/SANDBOX_API.md says (tokens of a
// sandbox's clients reach that sandbox; /sandboxes/ID/... reaches it by path; --auth off ignores
// credentials), recording which world answered each request.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CliError, UsageError } from './cli-errors.ts';
import { clockCommand } from './clock.ts';
import { type Connection, connect, organisationOf } from './connection.ts';
import { readSandboxProfile, writeSandboxProfile } from './profile.ts';
import { createAttributes, durationSeconds, SANDBOX_HELP, sandboxCommand, shellWord } from './sandbox.ts';

const ADMIN = { id: 'a0000000-0000-4000-8000-000000000001', secret: 'admin-secret' };
const ORG = '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb';

interface FakeClient {
  client_id: string;
  client_secret: string;
  organisation_id: string;
  name: string;
  role: 'admin' | 'member';
  key_ids: string[];
}
interface FakeSandbox {
  id: string;
  expires_at: string;
  seed: string;
  clients: FakeClient[];
}
interface Seen {
  method: string;
  path: string;
  world: string;
  authorization?: string;
}

/** The fake simulator: its sandboxes, the create bodies it got, every request and its world. */
class Fake {
  server!: Server;
  url = '';
  authOff = false;
  sandboxes = new Map<string, FakeSandbox>();
  bodies: unknown[] = [];
  seen: Seen[] = [];

  async start() {
    this.server = createServer((req, res) => {
      void this.answer(req).then(({ status, body }) => {
        res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset() {
    this.authOff = false;
    this.sandboxes.clear();
    this.bodies = [];
    this.seen = [];
  }

  resource(s: FakeSandbox, secrets: boolean) {
    return {
      type: 'sandboxes',
      id: s.id,
      version: 0,
      attributes: {
        expires_at: s.expires_at,
        seed: s.seed,
        settings: {},
        clock: { now: '2026-12-21T09:00:00.000Z', mode: 'frozen', speed: 1, london_date: '2026-12-21' },
        path_prefix: `/sandboxes/${s.id}`,
        clients: s.clients.map(({ client_secret, ...c }) => (secrets ? { ...c, client_secret } : c)),
        record_count: 3,
        record_quota: 100000,
      },
    };
  }

  async answer(req: IncomingMessage): Promise<{ status: number; body?: unknown }> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const error = (status: number, error_message: string) => ({
      status,
      body: { error_message, error_code: randomUUID() },
    });
    let path = new URL(req.url ?? '/', 'http://x').pathname;
    const auth = req.headers.authorization;
    // Which world: the path's sandbox, else the token's.
    let world = 'default';
    let caller: { world: string; client?: FakeClient | 'admin' } | undefined;
    if (auth?.startsWith('Bearer ')) {
      const token = auth.slice(7);
      if (token === 'default.admin') caller = { world: 'default', client: 'admin' };
      const m = /^sbx_([0-9a-f]{32})\.([^.]+)\.sig$/.exec(token);
      if (m) {
        const claims = JSON.parse(Buffer.from(m[2]!, 'base64url').toString('utf8'));
        const s = [...this.sandboxes.values()].find((x) => x.id.replace(/-/g, '') === m[1]);
        const client = s?.clients.find((c) => c.client_id === claims.client_id);
        if (s && client) caller = { world: s.id, client };
      }
    }
    const prefixed = /^\/sandboxes\/([^/]+)(\/.*)$/.exec(path);
    if (prefixed) {
      if (!this.sandboxes.has(prefixed[1]!)) return error(404, `no sandbox ${prefixed[1]}`);
      world = prefixed[1]!;
      path = prefixed[2]!;
      if (!this.authOff && caller && caller.world !== world) return error(401, 'a token of another sandbox');
    } else if (caller && !this.authOff) world = caller.world;
    this.seen.push({ method: req.method ?? '', path, world, ...(auth ? { authorization: auth } : {}) });

    if (path === '/v1/oauth2/token') {
      const [id, secret] = Buffer.from((auth ?? '').replace(/^Basic /, ''), 'base64')
        .toString('utf8')
        .split(':');
      if (id === ADMIN.id && secret === ADMIN.secret)
        return { status: 200, body: { access_token: 'default.admin', token_type: 'Bearer' } };
      for (const s of this.sandboxes.values())
        for (const c of s.clients)
          if (c.client_id === id && c.client_secret === secret) {
            const claims = Buffer.from(
              JSON.stringify({ client_id: c.client_id, organisation_id: c.organisation_id }),
            ).toString('base64url');
            return { status: 200, body: { access_token: `sbx_${s.id.replace(/-/g, '')}.${claims}.sig` } };
          }
      return error(403, 'invalid client credentials');
    }
    if (!this.authOff && !caller) return error(401, 'Authorization header is required: Bearer <access_token>');
    const admin = this.authOff || caller?.client === 'admin';
    if (path === '/v1/simulator/clock' && req.method === 'GET')
      return { status: 200, body: { data: { now: '2026-12-21T09:00:00.000Z', mode: 'frozen', world } } };
    if (path === '/v1/simulator/sandboxes' && req.method === 'POST') {
      if (!admin) return error(403, 'only an admin client of the default sandbox may create sandboxes');
      const body = text ? JSON.parse(text) : {};
      this.bodies.push(body);
      const attributes = body.data?.attributes ?? {};
      if (attributes.seed !== undefined && !['fixtures', 'none'].includes(attributes.seed))
        return error(400, 'seed must be fixtures or none');
      const id = randomUUID();
      const lifetime = attributes.lifetime_seconds ?? 86_400;
      const s: FakeSandbox = {
        id,
        expires_at: new Date(Date.now() + lifetime * 1000).toISOString(),
        seed: attributes.seed ?? 'fixtures',
        clients: [
          {
            client_id: randomUUID(),
            client_secret: `secret-${id.slice(0, 8)}`,
            organisation_id: ORG,
            name: 'northwind',
            role: 'admin',
            key_ids: [randomUUID()],
          },
          {
            client_id: randomUUID(),
            client_secret: "it's-a-secret",
            organisation_id: '5b5a6b4d-0f1e-4f4e-9a57-3f1a8d8a2b11',
            name: 'harbour',
            role: 'member',
            key_ids: [],
          },
        ],
      };
      this.sandboxes.set(id, s);
      return { status: 201, body: { data: this.resource(s, true), links: { self: `/v1/simulator/sandboxes/${id}` } } };
    }
    if (path === '/v1/simulator/sandboxes' && req.method === 'GET')
      return { status: 200, body: { data: [...this.sandboxes.values()].map((s) => this.resource(s, false)) } };
    const one = /^\/v1\/simulator\/sandboxes\/([^/]+)$/.exec(path);
    if (one) {
      const s = this.sandboxes.get(one[1]!);
      if (!s) return error(404, `no sandbox ${one[1]}`);
      const own = typeof caller?.client === 'object' && caller.world === s.id ? caller.client : undefined;
      if (!admin && !own) return error(403, 'not a client of this sandbox');
      if (req.method === 'GET') return { status: 200, body: { data: this.resource(s, true) } };
      if (req.method === 'DELETE') {
        if (!admin && own?.role !== 'admin') return error(403, "only the sandbox's admin may delete it");
        this.sandboxes.delete(s.id);
        return { status: 204 };
      }
    }
    return error(404, `no route ${req.method} ${path}`);
  }
}

const fake = new Fake();
let home: string;
beforeAll(async () => {
  await fake.start();
  home = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
});
afterAll(async () => {
  await new Promise((r) => fake.server.close(r));
  rmSync(home, { recursive: true, force: true });
});
beforeEach(() => {
  fake.reset();
  rmSync(join(home, '.scheme-sim'), { recursive: true, force: true });
});

/** The environment of a user of the simulator's own world (its admin client). */
const adminEnv = () => ({
  HOME: home,
  SCHEME_SIM_URL: fake.url,
  SCHEME_SIM_CLIENT_ID: ADMIN.id,
  SCHEME_SIM_CLIENT_SECRET: ADMIN.secret,
});

const sandbox = async (argv: string[], env: Record<string, string | undefined> = adminEnv()) => {
  const out: string[] = [];
  const notes: string[] = [];
  await sandboxCommand(
    argv,
    (l) => out.push(l),
    env,
    (l) => notes.push(l),
  );
  return { out, notes };
};
const clock = async (argv: string[], env: Record<string, string | undefined>) => {
  const out: string[] = [];
  const notes: string[] = [];
  await clockCommand(
    argv,
    env as NodeJS.ProcessEnv,
    (l) => out.push(l),
    (l) => notes.push(l),
  );
  return { out, notes, json: JSON.parse(out.join('\n')) };
};
const created = async (argv: string[] = [], env?: Record<string, string | undefined>) => {
  const { out } = await sandbox(['create', ...argv], env);
  const id = /^sandbox ([0-9a-f-]{36}) created on /.exec(out[0]!)?.[1];
  expect(id, out.join('\n')).toBeDefined();
  return { id: id!, out };
};

describe('scheme-sim sandbox create', () => {
  it('sends the flags as the contract’s attributes, prints the sandbox, its clients and export lines, and saves its admin', async () => {
    const { id, out } = await created([
      '--seed',
      'none',
      '--clock',
      'frozen',
      '--clock-start',
      '2026-12-21T09:00:00Z',
      '--expires-in',
      '2h',
      '--strict',
      '--cop-strict',
    ]);
    expect(fake.bodies).toEqual([
      {
        data: {
          type: 'sandboxes',
          attributes: {
            seed: 'none',
            clock: { mode: 'frozen', start: '2026-12-21T09:00:00Z' },
            lifetime_seconds: 7200,
            settings: { strict: true, cop_strict: true },
          },
        },
      },
    ]);
    const s = fake.sandboxes.get(id)!;
    const [admin, member] = s.clients;
    expect(out).toEqual([
      `sandbox ${id} created on ${fake.url}, expires ${s.expires_at}`,
      '  clock:   2026-12-21T09:00:00.000Z (frozen), London date 2026-12-21',
      `  seed:    none; 3 records of 100000; path /sandboxes/${id}`,
      `  client:  ${admin!.client_id} / ${admin!.client_secret} (admin northwind, organisation ${ORG}, key ids ${admin!.key_ids[0]})`,
      `  client:  ${member!.client_id} / it's-a-secret (member harbour, organisation ${member!.organisation_id})`,
      `  profile: ~/.scheme-sim/sandboxes/${id}.json; --sandbox ${id} uses it`,
      "# paste into a shell: Form3's Go SDK (FORM3_*) and scheme-sim's commands then talk to this sandbox",
      `export FORM3_HOST=${fake.url}`,
      `export FORM3_CLIENT_ID=${admin!.client_id}`,
      `export FORM3_CLIENT_SECRET=${admin!.client_secret}`,
      `export FORM3_ORGANISATION_ID=${ORG}`,
      `export FORM3_PUBLIC_KEY_ID=${admin!.key_ids[0]}`,
      '# FORM3_PRIVATE_KEY: the private key of the fixture client it copies (fixtures/keys/northwind-dev-signing.pem for the bundled one)',
      `export SCHEME_SIM_SANDBOX=${id}`,
    ]);
    const saved = readSandboxProfile(id, { HOME: home })!;
    expect(saved.profile).toMatchObject({
      id,
      url: fake.url,
      client_id: admin!.client_id,
      client_secret: admin!.client_secret,
      organisation_id: ORG,
      expires_at: s.expires_at,
    });
    expect(statSync(saved.file).mode & 0o777).toBe(0o600);
    // The probe of its path, made without credentials, told the simulator checks them.
    expect(fake.seen.find((r) => r.path === '/v1/simulator/clock')).toMatchObject({ world: id });
  });

  it('with --json prints the answer and says where the profile went on stderr', async () => {
    const { out, notes } = await sandbox(['create', '--json']);
    const json = JSON.parse(out.join('\n'));
    expect(json.data.attributes.clients[0].client_secret).toBeDefined();
    expect(notes[1]).toBe(`profile: ~/.scheme-sim/sandboxes/${json.data.id}.json; --sandbox ${json.data.id} uses it`);
    // An exported SCHEME_SIM_SANDBOX is not where a sandbox is made: the simulator's own world is.
    await sandbox(['create'], { ...adminEnv(), SCHEME_SIM_SANDBOX: json.data.id });
    expect(fake.sandboxes.size).toBe(2);
  });

  it('against --auth off saves no client: the sandbox is then reached by its path, FORM3_HOST included', async () => {
    fake.authOff = true;
    const env = { HOME: home, SCHEME_SIM_URL: fake.url };
    const { id, out } = await created([], env);
    expect(out).toContain(`export FORM3_HOST=${fake.url}/sandboxes/${id}`);
    expect(out.find((l) => l.startsWith('  profile:'))).toContain('(no client: the simulator runs with --auth off');
    expect(readSandboxProfile(id, env)?.profile.client_id).toBeUndefined();
    const { json, notes } = await clock(['show', '--json', '--sandbox', id], env);
    expect(json.data.world).toBe(id);
    expect(notes).toEqual([
      `scheme-sim: ${fake.url}/sandboxes/${id} (from SCHEME_SIM_URL), sandbox ${id} (from --sandbox; by its path), no client`,
    ]);
  });

  it('refuses flag values it can tell are wrong (exit 2), each with what it takes', async () => {
    const refusal = async (argv: string[]) => {
      const err = await sandbox(argv).catch((e: Error) => e);
      expect(err).toBeInstanceOf(UsageError);
      return (err as Error).message.split('\n')[0];
    };
    expect(await refusal(['create', '--seed', 'banana'])).toBe("--seed must be fixtures or none, got 'banana'");
    expect(await refusal(['create', '--clock', 'fast'])).toBe("--clock must be frozen or running, got 'fast'");
    expect(await refusal(['create', '--expires-in', '3 fortnights'])).toBe(
      "--expires-in must be a duration such as 30m, 2h or 7d (units s, m, h, d, w; combined as 1h30m), got '3 fortnights'",
    );
    expect(await refusal(['create', '--expires-in', '31d'])).toBe("--expires-in must be from 1m to 30d, got '31d'");
    expect(await refusal(['create', '--clock-start', '2026-12-21'])).toMatch(/^--clock-start must be an ISO 8601/);
    expect(await refusal(['create', '--clock', 'frozen', '--clock-speed', '2'])).toBe(
      '--clock-speed applies to a running clock only (--clock running)',
    );
    expect(await refusal(['create', '--clock-speed', '0'])).toMatch(/^--clock-speed must be a number greater than 0/);
    expect(await refusal(['create', '--sandbox', 'x'])).toBe('unknown option --sandbox');
    expect(await refusal(['create', 'extra'])).toBe('sandbox create takes no arguments, got extra');
    expect(await refusal(['show'])).toBe("sandbox show needs the sandbox's ID (scheme-sim sandbox list)");
    expect(await refusal(['delete', '../etc'])).toBe("not a sandbox id: '../etc'");
    expect(await refusal(['lst'])).toMatch(/^unknown sandbox command 'lst'; did you mean list\?/);
    expect(fake.bodies).toEqual([]);
    expect((await sandbox(['--help'])).out).toEqual([SANDBOX_HELP]);
  });

  it("prints the simulator's refusal (exit 1), not a usage error", async () => {
    const err = await sandbox(['create'], { HOME: home, SCHEME_SIM_URL: fake.url }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(CliError);
    expect(err).not.toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/^401: Authorization header is required/);
  });
});

describe('--sandbox on any command (connection.ts)', () => {
  it('reaches the sandbox as its saved admin, before SCHEME_SIM_CLIENT_ID, from the flag or SCHEME_SIM_SANDBOX', async () => {
    const { id } = await created();
    const admin = fake.sandboxes.get(id)!.clients[0]!;
    const file = `~/.scheme-sim/sandboxes/${id}.json`;
    const byFlag = await clock(['show', '--json', '--sandbox', id], adminEnv());
    expect(byFlag.json.data.world).toBe(id);
    expect(byFlag.notes).toEqual([
      `scheme-sim: ${fake.url} (from SCHEME_SIM_URL), sandbox ${id} (from --sandbox), client ${admin.client_id} (from sandbox profile ${file})`,
    ]);
    // Same base URL and paths: the token names the sandbox.
    expect(fake.seen.at(-1)).toMatchObject({ path: '/v1/simulator/clock', world: id });
    expect(fake.seen.at(-1)?.authorization).toMatch(/^Bearer sbx_/);
    // No URL at all: the profile names the simulator it was made on.
    const byEnv = await clock(['show', '--json'], { HOME: home, SCHEME_SIM_SANDBOX: id });
    expect(byEnv.json.data.world).toBe(id);
    expect(byEnv.notes[0]).toBe(
      `scheme-sim: ${fake.url} (from sandbox profile ${file}), sandbox ${id} (from SCHEME_SIM_SANDBOX), client ${admin.client_id} (from sandbox profile ${file})`,
    );
    // `default` is the simulator's own world.
    expect((await clock(['show', '--json', '--sandbox', 'default'], adminEnv())).json.data.world).toBe('default');
  });

  it('goes by the path without a saved client; flags name a client of it', async () => {
    const { id } = await created();
    const member = fake.sandboxes.get(id)!.clients[1]!;
    rmSync(join(home, '.scheme-sim', 'sandboxes', `${id}.json`));
    const env = { HOME: home, SCHEME_SIM_URL: fake.url, SCHEME_SIM_SANDBOX: id };
    const asMember = await clock(
      ['show', '--json', '--client-id', member.client_id, '--client-secret', member.client_secret],
      env,
    );
    expect(asMember.json.data.world).toBe(id);
    expect(asMember.notes[0]).toBe(
      `scheme-sim: ${fake.url}/sandboxes/${id} (from SCHEME_SIM_URL), sandbox ${id} (from SCHEME_SIM_SANDBOX; by its path), client ${member.client_id} (from --client-id)`,
    );
    // Without any client, the 401 says where one comes from.
    await expect(clock(['show'], env)).rejects.toThrow(
      `401: Authorization header is required: Bearer <access_token> (a client of sandbox ${id} is needed: none is saved for it here (scheme-sim sandbox create saves one); pass --client-id and --client-secret)`,
    );
    // An unknown sandbox: the simulator's 404, exit 1.
    const err = await clock(['show', '--sandbox', randomUUID()], adminEnv()).catch((e: Error) => e);
    expect(err).not.toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/^404: no sandbox /);
  });

  it('never sends a saved client to another URL, refuses a malformed id and an expired sandbox', async () => {
    const { id } = await created();
    const other = fake.url.replace('127.0.0.1', 'localhost');
    const notes: string[] = [];
    await connect({ sandbox: id, url: other }, { HOME: home }, (l) => notes.push(l));
    expect(notes[0]).toBe(
      `scheme-sim: ${other}/sandboxes/${id} (from --url), sandbox ${id} (from --sandbox; its saved client is for ${fake.url}, not sent here: by its path), no client`,
    );
    await expect(connect({ sandbox: 'a/b' }, { HOME: home }, () => undefined)).rejects.toThrow(UsageError);
    writeSandboxProfile({ id: 'old', url: fake.url, expires_at: '2020-01-01T00:00:00.000Z' }, { HOME: home });
    await expect(connect({}, { HOME: home, SCHEME_SIM_SANDBOX: 'old' }, () => undefined)).rejects.toThrow(
      'sandbox old (from SCHEME_SIM_SANDBOX) expired at 2020-01-01T00:00:00.000Z; scheme-sim sandbox delete old removes its profile ~/.scheme-sim/sandboxes/old.json',
    );
  });

  it("reads the organisation from a sandbox's token (sbx_<id>.<claims>.<sig>)", async () => {
    const claims = Buffer.from(JSON.stringify({ client_id: 'c', organisation_id: ORG })).toString('base64url');
    const conn = { auth: { authorization: `Bearer sbx_${'0'.repeat(32)}.${claims}.sig` } } as unknown as Connection;
    expect(await organisationOf(conn)).toBe(ORG);
  });
});

describe('scheme-sim sandbox list, show, delete', () => {
  it('lists (marking the saved), shows with secrets, deletes with the saved profile', async () => {
    const { id } = await created(['--expires-in', '1h30m']);
    const { id: otherId } = await created();
    rmSync(join(home, '.scheme-sim', 'sandboxes', `${otherId}.json`));
    const listed = (await sandbox(['list'])).out;
    expect(listed[0]).toBe(`2 sandboxes on ${fake.url}`);
    expect(listed.find((l) => l.startsWith(id))).toMatch(
      /expires \S+ {2}clock 2026-12-21T09:00:00.000Z \(frozen\) {2}seed fixtures {2}records 3\/100000 {2}clients 2 {2}saved$/,
    );
    expect(listed.find((l) => l.startsWith(otherId))).not.toMatch(/saved$/);
    expect(fake.bodies[0]).toMatchObject({ data: { attributes: { lifetime_seconds: 5400 } } });

    // Show: as the sandbox's own admin (no client of the own world needed), secrets and exports.
    const shown = await sandbox(['show', id], { HOME: home });
    expect(shown.out[0]).toMatch(new RegExp(`^sandbox ${id} on ${fake.url}, expires `));
    expect(shown.out).toContain(`export SCHEME_SIM_SANDBOX=${id}`);
    expect(shown.out).toContain(`export FORM3_CLIENT_SECRET=${fake.sandboxes.get(id)!.clients[0]!.client_secret}`);
    expect(shown.notes[0]).toMatch(/client \S+ \(from sandbox profile ~\/\.scheme-sim\/sandboxes\//);
    // The other has no saved profile: the own world's admin shows it.
    expect((await sandbox(['show', otherId])).out[0]).toContain(`sandbox ${otherId} on`);

    expect((await sandbox(['delete', id], { HOME: home })).out).toEqual([
      `sandbox ${id} deleted; removed its profile ~/.scheme-sim/sandboxes/${id}.json`,
    ]);
    expect(fake.sandboxes.has(id)).toBe(false);
    expect(existsSync(join(home, '.scheme-sim', 'sandboxes', `${id}.json`))).toBe(false);
    // Gone on the simulator already (expired): the 404, and the profile left here goes too.
    const { id: third } = await created();
    fake.sandboxes.delete(third);
    await expect(sandbox(['delete', third])).rejects.toThrow(
      `404: no sandbox ${third}; removed its profile ~/.scheme-sim/sandboxes/${third}.json`,
    );
    expect(readSandboxProfile(third, { HOME: home })).toBeUndefined();
  });
});

describe('the flags, checked before any request', () => {
  it('durations, clock and settings', () => {
    expect(durationSeconds('--expires-in', '30m')).toBe(1800);
    expect(durationSeconds('--expires-in', '7d')).toBe(604_800);
    expect(durationSeconds('--expires-in', '1H30M')).toBe(5400);
    expect(() => durationSeconds('--expires-in', '59s')).toThrow(UsageError);
    expect(() => durationSeconds('--expires-in', '2 hours')).toThrow(UsageError);
    expect(createAttributes({})).toEqual({});
    expect(createAttributes({ 'clock-speed': '60' })).toEqual({ clock: { mode: 'running', speed: 60 } });
  });

  it('export values are shell words', () => {
    expect(shellWord('http://127.0.0.1:8080/sandboxes/x')).toBe('http://127.0.0.1:8080/sandboxes/x');
    expect(shellWord("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });
});

describe('the scheme-sim bin', () => {
  const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const bin = async (args: string[], env: Record<string, string>) =>
    promisify(execFile)(process.execPath, [join(ROOT, 'bin', 'scheme-sim.mjs'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 30_000,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({
        code: e.code ?? -1,
        stdout: e.stdout ?? '',
        stderr: e.stderr ?? '',
      }),
    );

  it('exits 2 for a bad flag value, 1 for a refusal, 0 with the export lines', async () => {
    const banana = await bin(['sandbox', 'create', '--seed', 'banana'], adminEnv());
    expect(banana.code).toBe(2);
    expect(banana.stderr).toContain("scheme-sim: --seed must be fixtures or none, got 'banana'");
    const refused = await bin(['sandbox', 'create'], { HOME: home, SCHEME_SIM_URL: fake.url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('scheme-sim: 401: Authorization header is required');
    const made = await bin(['sandbox', 'create'], adminEnv());
    expect(made.code, made.stderr).toBe(0);
    const id = /export SCHEME_SIM_SANDBOX=(\S+)/.exec(made.stdout)![1]!;
    expect(JSON.parse(readFileSync(join(home, '.scheme-sim', 'sandboxes', `${id}.json`), 'utf8')).id).toBe(id);
  }, 60_000);
});
