// `scheme-sim sandbox` and --sandbox against real simulators listening on a port: one checking
// credentials (a sandbox reached by its admin's token), one run with --auth off (by its path).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemeClock } from '../clock/scheme-clock.ts';
import { NORTHWIND, TEST_START } from '../harness/test-runtime.ts';
import { listen, type RunningServer } from '../node/server.ts';
import { createRuntime, type Runtime } from '../runtime.ts';
import { apiCommand } from './api-commands.ts';
import { clockCommand } from './clock.ts';
import { faultsCommand } from './faults.ts';
import { readSandboxProfile } from './profile.ts';
import { sandboxCommand } from './sandbox.ts';

type Env = Record<string, string | undefined>;
const home = mkdtempSync(join(tmpdir(), 'sandbox-server-'));
const servers: Array<{ runtime: Runtime; server: RunningServer }> = [];
const start = async (auth: 'on' | 'off') => {
  const runtime = await createRuntime({
    memory: true,
    auth,
    scheduledReports: false,
    seedAccounts: false,
    clock: SchemeClock.frozenAt(TEST_START),
  });
  const server = await listen(runtime, 0);
  servers.push({ runtime, server });
  return { runtime, server };
};
let on: { runtime: Runtime; server: RunningServer };
let off: { runtime: Runtime; server: RunningServer };
beforeAll(async () => {
  on = await start('on');
  off = await start('off');
});
afterAll(async () => {
  for (const { runtime, server } of servers) {
    await server.close();
    await runtime.close();
  }
  rmSync(home, { recursive: true, force: true });
});

const lines = async (run: (out: (l: string) => void, note: (l: string) => void) => Promise<unknown>) => {
  const out: string[] = [];
  const notes: string[] = [];
  await run(
    (l) => out.push(l),
    (l) => notes.push(l),
  );
  return { out, notes };
};
const sandbox = (argv: string[], env: Env) => lines((out, note) => sandboxCommand(argv, out, env, note));
const clockNow = async (argv: string[], env: Env) => {
  const { out } = await lines((o, n) => clockCommand(['show', '--json', ...argv], env as NodeJS.ProcessEnv, o, n));
  return JSON.parse(out.join('\n')).data.now as string;
};

describe('against a simulator checking credentials', () => {
  it('creates a sandbox, reaches it with --sandbox as its saved admin, lists, shows and deletes it', async () => {
    const env = {
      HOME: home,
      SCHEME_SIM_URL: on.server.url,
      SCHEME_SIM_CLIENT_ID: NORTHWIND.client_id,
      SCHEME_SIM_CLIENT_SECRET: NORTHWIND.client_secret,
    };
    const made = await sandbox(
      ['create', '--seed', 'none', '--clock', 'frozen', '--clock-start', '2027-01-04T10:00:00Z', '--expires-in', '2h'],
      env,
    );
    const id = /export SCHEME_SIM_SANDBOX=(\S+)/.exec(made.out.join('\n'))?.[1];
    expect(id, made.out.join('\n')).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.out[1]).toBe('  clock:   2027-01-04T10:00:00.000Z (frozen), London date 2027-01-04');
    expect(made.out).toContain(`export FORM3_HOST=${on.server.url}`);
    const saved = readSandboxProfile(id!, env)!.profile;
    expect(saved.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(saved.expires_at!) - Date.now()).toBeGreaterThan(7100_000);

    // The sandbox's clock moves; the simulator's own does not.
    const inSandbox = { ...env, SCHEME_SIM_SANDBOX: id };
    expect(await clockNow([], inSandbox)).toBe('2027-01-04T10:00:00.000Z');
    await lines((o, n) => clockCommand(['advance', '--days', '1'], inSandbox as NodeJS.ProcessEnv, o, n));
    expect(await clockNow([], inSandbox)).toBe('2027-01-05T10:00:00.000Z');
    expect(await clockNow([], env)).toBe(TEST_START);
    expect(await clockNow(['--sandbox', 'default'], inSandbox)).toBe(TEST_START);
    // Faults and the request journal are the sandbox's own too.
    await lines((o, n) =>
      faultsCommand(['set', '--route', '/v1/organisation/accounts', '--status', '503'], o, inSandbox, n),
    );
    expect((await lines((o, n) => faultsCommand(['list'], o, env, n))).out).toEqual(['no faults']);
    const journal = await lines((o, n) => apiCommand('requests', ['--own', '--json'], o, inSandbox, n));
    const paths = JSON.parse(journal.out.join('\n')).data.map(
      (e: { attributes: { path: string } }) => e.attributes.path,
    );
    expect(paths).toContain('/v1/simulator/clock/advance');
    expect(journal.notes[0]).toContain(`sandbox ${id} (from SCHEME_SIM_SANDBOX), client ${saved.client_id}`);

    const listed = await sandbox(['list'], env);
    expect(listed.out.find((l) => l.startsWith(id!))).toMatch(/ {2}saved$/);
    const shown = await sandbox(['show', id!], { HOME: home });
    expect(shown.out).toContain(`export FORM3_CLIENT_SECRET=${saved.client_secret}`);
    expect((await sandbox(['delete', id!], { HOME: home })).out).toEqual([
      `sandbox ${id} deleted; removed its profile ~/.scheme-sim/sandboxes/${id}.json`,
    ]);
    // Gone: no profile, so by its path, where the simulator says it does not exist.
    await expect(clockNow(['--sandbox', id!], env)).rejects.toThrow(/^404: /);
  });

  it("refuses a member of the simulator's own world (exit 1, the simulator's words)", async () => {
    const env = {
      HOME: home,
      SCHEME_SIM_URL: on.server.url,
      SCHEME_SIM_CLIENT_ID: '8c2f1d4e-3b5a-4c6d-8e7f-9a0b1c2d3e4f',
      SCHEME_SIM_CLIENT_SECRET: 'harbour-dev-secret',
    };
    await expect(sandbox(['create'], env)).rejects.toThrow(
      /^403: creating a sandbox: sandboxes are managed by an admin/,
    );
  });
});

describe('against a simulator run with --auth off', () => {
  it('creates a sandbox without credentials and reaches it by its path', async () => {
    const env = { HOME: home, SCHEME_SIM_URL: off.server.url };
    const made = await sandbox(['create', '--clock', 'frozen', '--clock-start', '2027-02-01T09:00:00Z'], env);
    const id = /export SCHEME_SIM_SANDBOX=(\S+)/.exec(made.out.join('\n'))![1]!;
    expect(made.out).toContain(`export FORM3_HOST=${off.server.url}/sandboxes/${id}`);
    expect(readSandboxProfile(id, env)?.profile.client_id).toBeUndefined();
    const env2 = { ...env, SCHEME_SIM_SANDBOX: id };
    const { out, notes } = await lines((o, n) => clockCommand(['show', '--json'], env2 as NodeJS.ProcessEnv, o, n));
    expect(JSON.parse(out.join('\n')).data.now).toBe('2027-02-01T09:00:00.000Z');
    expect(notes[0]).toBe(
      `scheme-sim: ${off.server.url}/sandboxes/${id} (from SCHEME_SIM_URL), sandbox ${id} (from SCHEME_SIM_SANDBOX; by its path), no client`,
    );
    expect(await clockNow([], env)).toBe(TEST_START);
    expect((await sandbox(['delete', id], env)).out[0]).toBe(
      `sandbox ${id} deleted; removed its profile ~/.scheme-sim/sandboxes/${id}.json`,
    );
  });
});
