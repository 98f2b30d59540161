import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTarget, cliTarget } from '../../test/support/cli-target.ts';
import { NORTHWIND } from '../harness/test-runtime.ts';
import { apiCommand } from './api-commands.ts';
import { profilePath, readProfile, writeProfile } from './profile.ts';

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

describe('the CLI profile a running simulator writes', () => {
  it('is where SCHEME_SIM_PROFILE says, and reads back', () => {
    const env = { SCHEME_SIM_PROFILE: join(dir, 'p.json') };
    expect(profilePath(env)).toBe(join(dir, 'p.json'));
    writeProfile({ url: 'http://127.0.0.1:1', client_id: 'a', client_secret: 'b' }, env);
    expect(readProfile(env)).toEqual({ url: 'http://127.0.0.1:1', client_id: 'a', client_secret: 'b' });
    expect(readProfile({ SCHEME_SIM_PROFILE: join(dir, 'missing.json') })).toBeUndefined();
  });

  it('gives a command its simulator and credentials, and never sends them to another URL', async () => {
    const env = { SCHEME_SIM_PROFILE: join(dir, 'own.json') };
    writeProfile(
      { url: target.server.url, client_id: NORTHWIND.client_id, client_secret: NORTHWIND.client_secret },
      env,
    );
    const out: string[] = [];
    await apiCommand('requests', [], (l) => out.push(l), env);
    expect(out[0]).toMatch(/^\d+ requests$/);
    // Another URL (the same simulator by another name): the profile's secret is not sent there,
    // so the call goes without a token and is refused.
    const other = target.server.url.replace('127.0.0.1', 'localhost');
    await expect(apiCommand('requests', ['--url', other], () => undefined, env)).rejects.toThrow(/^401: /);
  });
});
