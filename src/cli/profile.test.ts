import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget } from '../../test/support/cli-target.ts';
import { NORTHWIND } from '../harness/test-runtime.ts';
import { apiCommand } from './api-commands.ts';
import { connect, resolveTarget } from './connection.ts';
import {
  chosenProfile,
  listProfiles,
  profileFileFor,
  profileFileName,
  profileOf,
  readProfileFile,
  writeProfile,
} from './profile.ts';

let target: CliTarget;
let dir: string;
beforeAll(async () => {
  target = await cliTarget();
  dir = mkdtempSync(join(tmpdir(), 'profile-'));
});
afterAll(async () => {
  await target.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh HOME: its ~/.scheme-sim/profiles is the folder of per-simulator profiles. */
const freshHome = (name: string) => {
  const home = join(dir, name);
  mkdirSync(home, { recursive: true });
  return { HOME: home };
};

describe('the profiles running simulators write', () => {
  it('are one file per host and port, or the one file SCHEME_SIM_PROFILE names', () => {
    expect(profileFileName('http://127.0.0.1:8080')).toBe('127.0.0.1_8080.json');
    expect(profileFileName('http://[::1]:9090/')).toBe('__1_9090.json');
    const env = freshHome('a');
    expect(profileFileFor('http://127.0.0.1:8080', env)).toBe(
      join(env.HOME, '.scheme-sim', 'profiles', '127.0.0.1_8080.json'),
    );
    expect(profileFileFor('http://127.0.0.1:8080', { ...env, SCHEME_SIM_PROFILE: join(dir, 'p.json') })).toBe(
      join(dir, 'p.json'),
    );
  });

  it('never overwrite a live simulator’s profile in a shared SCHEME_SIM_PROFILE, only their own', () => {
    const env = { SCHEME_SIM_PROFILE: join(dir, 'shared.json') };
    // This process is alive: its profile is a running simulator's.
    expect(writeProfile({ url: 'http://127.0.0.1:1', pid: process.pid }, env).refused).toBeUndefined();
    const other = writeProfile({ url: 'http://127.0.0.1:2', pid: process.pid + 1_000_000 }, env);
    expect(other.refused).toMatch(/is the profile of the running simulator at http:\/\/127\.0\.0\.1:1$/);
    expect(readProfileFile(env.SCHEME_SIM_PROFILE)?.url).toBe('http://127.0.0.1:1');
    // A profile whose process has gone is taken over.
    writeProfile({ url: 'http://127.0.0.1:3', pid: 2 ** 22 + 12345 }, { SCHEME_SIM_PROFILE: join(dir, 'gone.json') });
    const taken = writeProfile(
      { url: 'http://127.0.0.1:4', pid: process.pid },
      { SCHEME_SIM_PROFILE: join(dir, 'gone.json') },
    );
    expect(taken.refused).toBeUndefined();
  });

  it("of a URL are none when their simulator's process has gone", () => {
    const env = freshHome('gone');
    writeProfile({ url: 'http://127.0.0.1:7070', pid: 2 ** 22 + 12345 }, env);
    expect(profileOf('http://127.0.0.1:7070', env)).toBeUndefined();
    writeProfile({ url: 'http://127.0.0.1:7070', pid: process.pid }, env);
    expect(profileOf('http://127.0.0.1:7070', env)?.profile.pid).toBe(process.pid);
  });

  it('are chosen by directory, then the newest; the target line names the file and why', () => {
    const env = freshHome('b');
    writeProfile({ url: 'http://127.0.0.1:8080', cwd: '/work/a', started_at: '2026-01-01T00:00:00Z' }, env);
    writeProfile({ url: 'http://127.0.0.1:9090', cwd: '/work/b', started_at: '2026-01-02T00:00:00Z' }, env);
    expect(listProfiles(env).map((p) => p.profile.url)).toEqual(['http://127.0.0.1:9090', 'http://127.0.0.1:8080']);
    expect(chosenProfile(env, '/work/a/sub')?.profile.url).toBe('http://127.0.0.1:8080');
    expect(chosenProfile(env, '/elsewhere')?.why).toBe('the newest of 2');
    const t = resolveTarget({}, env, '/work/a');
    expect(t.base).toBe('http://127.0.0.1:8080');
    expect(t.source).toBe(
      'profile ~/.scheme-sim/profiles/127.0.0.1_8080.json, started in this directory; also http://127.0.0.1:9090: --url picks one',
    );
    expect(resolveTarget({ url: 'http://127.0.0.1:9090/' }, env).source).toBe('--url');
    expect(resolveTarget({}, { ...env, SCHEME_SIM_URL: 'http://127.0.0.1:7070' }).source).toBe('SCHEME_SIM_URL');
    expect(resolveTarget({}, freshHome('empty')).source).toBe('the default: no --url, SCHEME_SIM_URL or profile');
  });
});

describe('a profile whose simulator has stopped', () => {
  const DEAD = 2 ** 22 + 12345;

  it('never shadows a live one started in the same folder, nor a live one anywhere', () => {
    const env = freshHome('shadow');
    // The older simulator still runs (this process); the newer one, started in the same folder, stopped.
    writeProfile(
      { url: 'http://127.0.0.1:8080', pid: process.pid, cwd: '/work/a', started_at: '2026-01-01T00:00:00Z' },
      env,
    );
    writeProfile({ url: 'http://127.0.0.1:8081', pid: DEAD, cwd: '/work/a', started_at: '2026-01-02T00:00:00Z' }, env);
    const here = chosenProfile(env, '/work/a');
    expect(here?.profile.url).toBe('http://127.0.0.1:8080');
    expect(here?.why).toBe('started in this directory');
    const elsewhere = chosenProfile(env, '/elsewhere');
    expect(elsewhere?.profile.url).toBe('http://127.0.0.1:8080');
    expect(elsewhere?.why).toBe('the newest running of 2');
  });

  it("started here still comes before another folder's live one: the command says it is stale", () => {
    const env = freshHome('stale-here');
    writeProfile(
      { url: 'http://127.0.0.1:8080', pid: process.pid, cwd: '/work/b', started_at: '2026-01-01T00:00:00Z' },
      env,
    );
    writeProfile({ url: 'http://127.0.0.1:8081', pid: DEAD, cwd: '/work/a', started_at: '2025-12-31T00:00:00Z' }, env);
    expect(chosenProfile(env, '/work/a')?.profile.url).toBe('http://127.0.0.1:8081');
  });
});

describe('a command reaching its simulator', () => {
  it('says on stderr which URL and client it uses and where each came from', async () => {
    const env = { SCHEME_SIM_PROFILE: join(dir, 'own.json') };
    writeProfile(
      { url: target.server.url, client_id: NORTHWIND.client_id, client_secret: NORTHWIND.client_secret },
      env,
    );
    const out: string[] = [];
    const notes: string[] = [];
    await apiCommand(
      'requests',
      ['--json'],
      (l) => out.push(l),
      env,
      (l) => notes.push(l),
    );
    expect(JSON.parse(out.join('\n')).data).toBeInstanceOf(Array);
    expect(notes).toEqual([
      `scheme-sim: ${target.server.url} (from profile ${env.SCHEME_SIM_PROFILE}, SCHEME_SIM_PROFILE), client ${NORTHWIND.client_id} (from profile ${env.SCHEME_SIM_PROFILE})`,
    ]);
    // Another URL (the same simulator by another name): the profile's secret is not sent there,
    // so the call goes without a token and is refused, with where a client comes from.
    const other = target.server.url.replace('127.0.0.1', 'localhost');
    await expect(
      apiCommand(
        'requests',
        ['--url', other],
        () => undefined,
        env,
        () => undefined,
      ),
    ).rejects.toThrow(/^401: .*\(a client is needed: set SCHEME_SIM_CLIENT_ID/);
  });

  it('names a stale profile in one line with the command that fixes it', async () => {
    const env = freshHome('stale');
    // A port nothing listens on: one the test's server had, closed.
    const { listen } = await import('../node/server.ts');
    const gone = await listen(target.rt, 0);
    await gone.close();
    writeProfile({ url: gone.url, started_at: '2026-01-01T00:00:00Z' }, env);
    const port = new URL(gone.url).port;
    const err = await connect({}, env, () => undefined)
      .then((c) => c.request('/v1/simulator/clock'))
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message).toBe(
      `stale profile ~/.scheme-sim/profiles/127.0.0.1_${port}.json: nothing listens at ${gone.url}; start it again (scheme-sim start --port ${port}), or remove stale profiles (scheme-sim profiles --prune), or pass --url`,
    );
    expect(message.split('\n')).toHaveLength(1);
  });

  it('names the URL and the source of the client id when the token is refused', async () => {
    const env = {
      SCHEME_SIM_URL: target.server.url,
      SCHEME_SIM_CLIENT_ID: NORTHWIND.client_id,
      SCHEME_SIM_CLIENT_SECRET: 'wrong',
    };
    await expect(connect({}, env, () => undefined)).rejects.toThrow(
      `token request to ${target.server.url}/v1/oauth2/token failed: 403 invalid client credentials (client id ${NORTHWIND.client_id} from SCHEME_SIM_CLIENT_ID)`,
    );
  });
});
