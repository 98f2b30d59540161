import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Two simulators started as a user starts them (two projects, two ports), each writing its own
// profile under one HOME; the CLI's commands in each project's folder, then after one has stopped.

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'scheme-sim.mjs');
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

let home: string;
const children: ChildProcess[] = [];
/** The environment of the user: a HOME of their own, no SCHEME_SIM_* (vitest sets SCHEME_SIM_PROFILE). */
const userEnv = () => ({ PATH: process.env.PATH ?? '', HOME: home });

function startIn(cwd: string): Promise<{ child: ChildProcess; url: string; out: () => string }> {
  const child = spawn(process.execPath, [BIN, 'start', '--memory', '--port', '0'], {
    cwd,
    env: userEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  return new Promise((done, fail) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/\S+)[\s\S]*\n {2}profile: .*\n/.exec(out);
      if (!m) return;
      clearInterval(timer);
      done({ child, url: m[1]!, out: () => out });
    }, 20);
    child.once('exit', (code) => {
      clearInterval(timer);
      fail(new Error(`exited ${code} before listening:\n${out}`));
    });
  });
}

function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(process.execPath, [BIN, ...args], { cwd, env: userEnv(), timeout: 30_000 }, (err, stdout, stderr) =>
      done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    ),
  );
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'profiles-home-'));
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

describe('two simulators, two profiles', () => {
  it('each command names the simulator it used; one stopped, commands against it say so in one line', async () => {
    const a = join(home, 'project-a');
    const b = join(home, 'project-b');
    mkdirSync(a);
    mkdirSync(b);
    const simA = await startIn(a);
    const simB = await startIn(b);
    const portA = new URL(simA.url).port;
    const portB = new URL(simB.url).port;
    expect(simA.out()).toContain(`profile: ~/.scheme-sim/profiles/127.0.0.1_${portA}.json`);
    expect(simB.out()).toContain(`profile: ~/.scheme-sim/profiles/127.0.0.1_${portB}.json`);

    const inA = await cli(['clock', 'show', '--json'], a);
    expect(inA.code, inA.stderr).toBe(0);
    // stdout is the answer alone; the target line is on stderr.
    expect(JSON.parse(inA.stdout).data.mode).toBe('running');
    expect(inA.stderr).toContain(
      `scheme-sim: ${simA.url} (from profile ~/.scheme-sim/profiles/127.0.0.1_${portA}.json, started in this directory; also ${simB.url}: --url picks one), client `,
    );
    const inB = await cli(['clock', 'show'], b);
    expect(inB.stderr).toContain(
      `scheme-sim: ${simB.url} (from profile ~/.scheme-sim/profiles/127.0.0.1_${portB}.json`,
    );
    const byUrl = await cli(['clock', 'show', '--url', simB.url], a);
    expect(byUrl.code, byUrl.stderr).toBe(0);
    expect(byUrl.stderr).toMatch(new RegExp(`^scheme-sim: ${simB.url} \\(from --url\\), client \\S+ \\(from profile `));

    const listed = await cli(['profiles'], a);
    expect(listed.stdout).toContain(`* ${simA.url} live `);
    expect(listed.stdout).toContain(`  ${simB.url} live `);

    simA.child.kill('SIGKILL');
    await new Promise((r) => simA.child.once('exit', r));
    const stale = await cli(['clock', 'show'], a);
    expect(stale.code).toBe(1);
    const lines = stale.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      `scheme-sim: stale profile ~/.scheme-sim/profiles/127.0.0.1_${portA}.json: nothing listens at ${simA.url}; start it again (scheme-sim start --port ${portA}), or remove stale profiles (scheme-sim profiles --prune), or pass --url`,
    );
    // The other simulator is untouched, and pruning removes only the stale profile.
    expect((await cli(['clock', 'show'], b)).code).toBe(0);
    const pruned = await cli(['profiles', '--prune'], b);
    expect(pruned.stdout.trim()).toBe(`removed 1 stale: ~/.scheme-sim/profiles/127.0.0.1_${portA}.json`);
    const after = await cli(['clock', 'show'], a);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain(
      `scheme-sim: ${simB.url} (from profile ~/.scheme-sim/profiles/127.0.0.1_${portB}.json, the only one)`,
    );
    simB.child.kill('SIGTERM');
  });
});

describe('two simulators started in one folder', () => {
  it('the newer one stopped with Ctrl-C, commands there use the older one, still running', async () => {
    const folder = join(home, 'one-folder');
    mkdirSync(folder);
    const older = await startIn(folder);
    const newer = await startIn(folder);
    const inFolder = await cli(['clock', 'show'], folder);
    expect(inFolder.stderr).toContain(`scheme-sim: ${newer.url} (from profile `);

    newer.child.kill('SIGINT');
    await new Promise((r) => newer.child.once('exit', r));
    const after = await cli(['clock', 'show'], folder);
    expect(after.code, after.stderr).toBe(0);
    const port = new URL(older.url).port;
    expect(after.stderr).toContain(
      `scheme-sim: ${older.url} (from profile ~/.scheme-sim/profiles/127.0.0.1_${port}.json, started in this directory; also `,
    );
    expect((await cli(['profiles'], folder)).stdout).toContain(`* ${older.url} live `);
    older.child.kill('SIGTERM');
  });
});
