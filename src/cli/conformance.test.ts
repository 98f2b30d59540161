import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'scheme-sim.mjs');

async function cli(
  args: string[],
  env: Record<string, string> = {},
  cwd = ROOT,
): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 120_000,
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('scheme-sim conformance', () => {
  it('runs from another project folder: its own simulator for the sim target, reports in that folder', async () => {
    const project = mkdtempSync(join(tmpdir(), 'conformance-user-'));
    try {
      const { code, out } = await cli(['conformance', '--target', 'sim', '--tags', '@tenancy'], {}, project);
      expect(code, out).toBe(0);
      expect(out).toMatch(/a simulator for the sim target at http:\/\/127\.0\.0\.1:\d+ \(memory, clock frozen/);
      expect(out).toMatch(/4 scenarios \(4 passed\)/);
      expect(existsSync(join(project, 'reports', 'cucumber.junit.xml'))).toBe(true);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 150_000);

  it('runs the sim target in a sandbox of its own simulator (--sandbox new), and deletes it after', async () => {
    const project = mkdtempSync(join(tmpdir(), 'conformance-sandbox-'));
    try {
      const { code, out } = await cli(
        ['conformance', '--target', 'sim', '--sandbox', 'new', '--tags', '@smoke'],
        {},
        project,
      );
      expect(code, out).toBe(0);
      expect(out).toMatch(/conformance: created sandbox [0-9a-f-]{36} at http:\/\/127\.0\.0\.1:\d+\/sandboxes\//);
      expect(out).toMatch(/conformance: \d+ passed, 0 failed/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 150_000);

  it('runs the staging preflight, which names every missing setting in one line', async () => {
    const { code, out } = await cli(['conformance', '--target', 'staging'], {
      CONFORMANCE_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(code).toBe(2);
    expect(out).toMatch(/conformance preflight: the staging conformance target needs CONFORMANCE_CLIENT_ID/);
  }, 150_000);

  it('runs one feature file (--feature), and scenarios by name (--name)', async () => {
    const claims = await cli(['conformance', '--feature', 'features/claims.feature']);
    expect(claims.code, claims.out).toBe(0);
    expect(claims.out).toMatch(/conformance by flow: claims (\d+)\/\1\n/);
    const named = await cli([
      'conformance',
      '--feature',
      'name_verification_known_account.feature',
      '--name',
      '^The held name matches$',
    ]);
    expect(named.code, named.out).toBe(0);
    expect(named.out).toContain('1 scenario (1 passed)');
  }, 150_000);

  it('names the nearest feature file for a wrong --feature, and refuses a --name that is no pattern', async () => {
    const wrong = await cli(['conformance', '--feature', 'features/claim.feature']);
    expect(wrong.code).toBe(2);
    expect(wrong.out).toContain(
      'scheme-sim: --feature features/claim.feature: no such feature file or folder; did you mean features/claims.feature?',
    );
    const name = await cli(['conformance', '--name', '(unclosed']);
    expect(name.code).toBe(2);
    expect(name.out).toContain('scheme-sim: --name must be a regular expression');
  }, 60_000);

  it('refuses an unknown target, --url off the sim target, and --sandbox in process or of no form', async () => {
    expect(await cli(['conformance', '--target', 'prod'])).toMatchObject({
      code: 2,
      out: expect.stringContaining('--target must be inprocess, sim or staging, got prod'),
    });
    expect(await cli(['conformance', '--target', 'staging', '--url', 'http://x'])).toMatchObject({
      code: 2,
      out: expect.stringContaining('--url applies to --target sim only'),
    });
    expect(await cli(['conformance', '--sandbox', 'new'])).toMatchObject({
      code: 2,
      out: expect.stringContaining('--sandbox applies to --target sim or staging'),
    });
    expect(await cli(['conformance', '--target', 'staging', '--sandbox', 'mine'])).toMatchObject({
      code: 2,
      out: expect.stringContaining('--sandbox must be new or the id (a UUID) of a sandbox of the target, got mine'),
    });
  }, 60_000);
});
