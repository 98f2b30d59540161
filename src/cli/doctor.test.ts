import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { populatedDataFile } from '../../test/support/populated-data-file.ts';
import { createRuntime } from '../runtime.ts';
import { doctorCommand } from './doctor.ts';

const BIN = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'bin', 'scheme-sim.mjs');

let dir: string;
let sound: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doctor-cli-'));
  sound = readFileSync(await populatedDataFile(dir), 'utf8');
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The populated file with its first account replaced by 5 and meta.auth_key set to 42. */
function corrupted(name: string): { file: string; accountId: string } {
  const data = JSON.parse(sound);
  const accountId = Object.keys(data.collections.accounts)[0]!;
  data.collections.accounts[accountId] = 5;
  data.meta.auth_key = 42;
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(data));
  return { file, accountId };
}

async function doctor(args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await doctorCommand(args, (l) => lines.push(l));
  return { code, lines };
}

describe('scheme-sim doctor', () => {
  it('says a sound file has no problems', async () => {
    const file = join(dir, 'sound.json');
    writeFileSync(file, sound);
    const { code, lines } = await doctor(['--data', file]);
    expect(code).toBe(0);
    expect(lines).toEqual([expect.stringMatching(/^.*sound\.json: \d+ records in \d+ collections, no problems$/)]);
  });

  it('lists every problem, exits 1 and writes nothing', async () => {
    const { file, accountId } = corrupted('two-problems.json');
    const before = readFileSync(file, 'utf8');
    const { code, lines } = await doctor(['--data', file]);
    expect(code).toBe(1);
    expect(lines).toEqual([
      `${file}: meta auth_key: the value must be string`,
      `${file}: accounts ${accountId}: the record must be an object, got 5`,
      expect.stringContaining(`${file}: 2 problems in`),
    ]);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('--fix drops the offending records after a backup, and the simulator then starts', async () => {
    const { file, accountId } = corrupted('to-fix.json');
    const before = readFileSync(file, 'utf8');
    const { code, lines } = await doctor(['--data', file, '--fix']);
    expect(code).toBe(0);
    expect(lines[0]).toBe('dropped meta auth_key: the value must be string');
    expect(lines[1]).toBe(`dropped accounts ${accountId}: the record must be an object, got 5`);
    // The token key was dropped: start-up makes a new one, said aloud rather than done silently.
    expect(lines[2]).toBe('forgot meta auth_key: start-up makes a new one');
    const backup = /the file as it was is in (.+)$/.exec(lines[3]!)![1]!;
    expect(readFileSync(backup, 'utf8')).toBe(before);
    const rt = await createRuntime({ data: file, seedAccounts: false, scheduledReports: false });
    expect(rt.sim.accounts.repo.rows.size).toBe(1);
    await rt.close();
  });

  it('runs as a real command: exit 1 with problems; without --data, ./data/sim.json as start uses', async () => {
    const { file } = corrupted('cli.json');
    const outcome = await promisify(execFile)(process.execPath, [BIN, 'doctor', '--data', file]).then(
      () => ({ code: 0, stdout: '' }),
      (err: { code: number; stdout: string }) => err,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain(`${file}: meta auth_key:`);
    // A project folder whose simulator keeps ./data/sim.json (start's default).
    const project = mkdtempSync(join(dir, 'project-'));
    const missing = await promisify(execFile)(process.execPath, [BIN, 'doctor'], { cwd: project }).catch(
      (err: { code: number; stderr: string }) => err,
    );
    const defaultFile = join(realpathSync(project), 'data', 'sim.json');
    expect(missing).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`no data file at ${defaultFile}, the default of scheme-sim start`),
    });
    mkdirSync(join(project, 'data'));
    writeFileSync(defaultFile, sound);
    const found = await promisify(execFile)(process.execPath, [BIN, 'doctor'], { cwd: project });
    expect(found.stdout).toMatch(
      new RegExp(`^${defaultFile.replaceAll('.', '\\.')}: \\d+ records in \\d+ collections, no problems\\n$`),
    );
  }, 30_000);

  it('names a store held by a running simulator as held by its lock, not as a problem', async () => {
    const data = join(dir, 'held', 'sim.json');
    const rt = await createRuntime({ data, seedAccounts: false, scheduledReports: false });
    try {
      const { code, lines } = await doctor(['--data', data]);
      expect(lines).toEqual([
        `${data}.lock: data file ${data} is in use by another simulator (pid ${process.pid}): held by its lock, read as last written; another start-up refuses it and --fix waits until that simulator stops`,
        expect.stringMatching(
          new RegExp(
            `: \\d+ records? in \\d+ collections?, no problems; held by the running simulator pid ${process.pid}$`,
          ),
        ),
      ]);
      // Start-up would refuse the file while it is held (exit 1); --fix says why it waits.
      expect(code).toBe(1);
      const fix = await doctor(['--data', data, '--fix']);
      expect(fix.code).toBe(1);
      expect(fix.lines.join('\n')).toContain(`pid ${process.pid}`);
    } finally {
      await rt.close();
    }
    expect((await doctor(['--data', data])).code).toBe(0);
  }, 30_000);

  it("checks each sandbox's data file too, and names the damaged one", async () => {
    const sandboxDir = mkdtempSync(join(tmpdir(), 'doctor-sandboxes-'));
    try {
      const data = join(sandboxDir, 'sim.json');
      const rt = await createRuntime({ data, seedAccounts: false });
      const good = await rt.sandboxes.create({ seed: 'none' });
      const bad = await rt.sandboxes.create({ seed: 'fixtures' });
      await rt.close();
      expect((await doctor(['--data', data])).code).toBe(0);
      // The second sandbox's snapshot lost, its journal left: a store start-up refuses.
      rmSync(join(sandboxDir, 'sim.sandboxes', bad.id, 'sim.json'));
      const { code, lines } = await doctor(['--data', data]);
      expect(code).toBe(1);
      expect(lines).toContain(`sandbox ${good.id}:`);
      const at = lines.indexOf(`sandbox ${bad.id}:`);
      expect(at).toBeGreaterThan(-1);
      expect(lines.slice(at + 1).join('\n')).toMatch(/snapshot/);
    } finally {
      rmSync(sandboxDir, { recursive: true, force: true });
    }
  }, 60_000);
});
