import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { missingSettings, reachTarget, readSettings, STAGING_SETTINGS } from './settings.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('conformance settings', () => {
  it('come from conformance.json, the environment winning', () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-'));
    const file = join(dir, 'conformance.json');
    writeFileSync(file, JSON.stringify({ CONFORMANCE_BASE_URL: 'https://from-file', CONFORMANCE_BIC: 'NWBKGB2L' }));
    const settings = readSettings({ CONFORMANCE_BASE_URL: 'https://from-env' }, file);
    expect(settings.CONFORMANCE_BASE_URL).toBe('https://from-env');
    expect(settings.CONFORMANCE_BIC).toBe('NWBKGB2L');
  });

  it('name every missing required one in one line, and none of the optional ones', () => {
    const line = missingSettings('staging', STAGING_SETTINGS, { CONFORMANCE_BASE_URL: 'https://x' });
    expect(line).not.toContain('\n');
    for (const s of STAGING_SETTINGS.filter((s) => !s.optional && s.name !== 'CONFORMANCE_BASE_URL'))
      expect(line).toContain(s.name);
    expect(line).not.toContain('CONFORMANCE_BASE_URL');
    expect(line).not.toContain('CONFORMANCE_OTHER_');
    const all = Object.fromEntries(STAGING_SETTINGS.map((s) => [s.name, 'x']));
    expect(missingSettings('staging', STAGING_SETTINGS, all)).toBeUndefined();
  });

  it('are checked against the target: unreachable, refused, or fine', async () => {
    const server = createServer((req, res) => {
      const ok = req.headers.authorization === `Basic ${Buffer.from('id:secret').toString('base64')}`;
      res
        .writeHead(ok ? 200 : 403, { 'content-type': 'application/json', connection: 'close' })
        .end(ok ? '{"access_token":"t"}' : '{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await reachTarget(url, 'id', 'secret')).toBeUndefined();
      expect(await reachTarget(url, 'id', 'wrong')).toMatch(/refused a token for client id: 403/);
    } finally {
      await new Promise((r) => server.close(r));
    }
    // The port the server just gave back: nothing listens there now.
    expect(await reachTarget(url, 'id', 'secret')).toBe(`cannot reach ${url}: ECONNREFUSED`);
    expect(await reachTarget('http://127.0.0.1:9', 'id', 'secret')).toBe('cannot reach http://127.0.0.1:9: bad port');
  });
});

describe('the staging profile with only CONFORMANCE_BASE_URL set', () => {
  it('prints one line naming the other settings and exits non-zero', async () => {
    const run = promisify(execFile);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_OPTIONS: '--import tsx',
      CONFORMANCE_BASE_URL: 'http://127.0.0.1:9',
    };
    const result = await run(
      process.execPath,
      ['node_modules/@cucumber/cucumber/bin/cucumber.js', '--profile', 'staging'],
      {
        cwd: ROOT,
        env,
        timeout: 60_000,
      },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^conformance preflight: the staging conformance target needs CONFORMANCE_CLIENT_ID/);
  }, 70_000);
});
