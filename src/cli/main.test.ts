import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SchemeClock } from '../clock/scheme-clock.ts';
import { NORTHWIND, TEST_START } from '../harness/test-runtime.ts';
import { listen, type RunningServer } from '../node/server.ts';
import { createRuntime, type Runtime } from '../runtime.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'scheme-sim.mjs');
const run = promisify(execFile);

// Each test starts the real command several times (a Node process with tsx each): on a loaded
// 2-core machine that takes longer than the suite's default 20 s.
vi.setConfig({ testTimeout: 60_000 });

let runtime: Runtime;
let server: RunningServer;
// The commands' own home: profiles other simulators left in the real one (~/.scheme-sim/profiles,
// keyed by host and port, and a port is reused) must not lend a command their client.
const home = mkdtempSync(join(tmpdir(), 'scheme-sim-cli-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
beforeAll(async () => {
  runtime = await createRuntime({ memory: true, scheduledReports: false, clock: SchemeClock.frozenAt(TEST_START) });
  server = await listen(runtime, 0);
});
afterAll(() => server.close());

/** Runs the CLI (a real process) against the listening server; never throws, returns the outcome. */
async function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    SCHEME_SIM_CLIENT_ID: NORTHWIND.client_id,
    SCHEME_SIM_CLIENT_SECRET: NORTHWIND.client_secret,
    SCHEME_SIM_URL: server.url,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...base, ...env },
      timeout: 20_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('scheme-sim clock (against a listening server)', () => {
  it('shows and advances the clock with credentials from the environment', async () => {
    const shown = await cli(['clock', 'show']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`scheme clock: ${TEST_START} (frozen)`);
    runtime.sim.scheduler.handle('cli-probe', () => {});
    runtime.sim.scheduler.schedule('cli-probe', new Date('2026-12-24T10:00:00Z'), {}, 'probe-1');
    const advanced = await cli(['clock', 'advance', '--working-days', '4', '--url', server.url]);
    expect(advanced.code, advanced.stderr).toBe(0);
    expect(advanced.stdout).toContain('scheme clock: 2026-12-29T09:00:00.000Z (frozen)');
    expect(advanced.stdout).toContain('1 job run');
    expect(advanced.stdout).toContain('(cli-probe ×1)');
    expect(runtime.sim.clock.now().toISOString()).toBe('2026-12-29T09:00:00.000Z');
  });

  it('resumes at a speed and freezes, with flags for credentials and JSON output', async () => {
    const resumed = await cli(
      [
        'clock',
        'resume',
        '--speed',
        '5',
        '--json',
        '--client-id',
        NORTHWIND.client_id,
        '--client-secret',
        NORTHWIND.client_secret,
      ],
      {
        SCHEME_SIM_CLIENT_ID: '',
        SCHEME_SIM_CLIENT_SECRET: '',
      },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout).data).toMatchObject({ mode: 'running', speed: 5 });
    const frozen = await cli(['clock', 'freeze', '--json']);
    expect(JSON.parse(frozen.stdout).data.mode).toBe('frozen');
    expect(runtime.sim.clock.mode).toBe('frozen');
  });

  it('exits 2 for a usage error and 1 for a refused request, with the reason', async () => {
    const two = await cli(['clock', 'advance', '--days', '1', '--hours', '2']);
    expect(two).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('exactly one of --working-days, --days, --hours, --to; got --days and --hours'),
    });
    const past = await cli(['clock', 'advance', '--to', '2026-01-01T00:00:00Z']);
    expect(past).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/409: to \(2026-01-01T00:00:00.000Z\) is before the scheme clock/),
    });
    const negative = await cli(['clock', 'advance', '--days=-2']);
    expect(negative).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        '400: validation failure list:\ndays in body should be greater than or equal to 0',
      ),
    });
    const anonymous = await cli(['clock', 'show'], { SCHEME_SIM_CLIENT_ID: '', SCHEME_SIM_CLIENT_SECRET: '' });
    expect(anonymous).toMatchObject({ code: 1, stderr: expect.stringContaining('401') });
    expect(anonymous.stderr).toContain('SCHEME_SIM_CLIENT_ID');
    const unreachable = await cli(['clock', 'show', '--url', 'http://127.0.0.1:1']);
    expect(unreachable).toMatchObject({ code: 1, stderr: expect.stringContaining('cannot reach http://127.0.0.1:1') });
    expect(await cli(['redeliver'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('redeliver needs NOTIFICATION_ID'),
    });
    expect(await cli(['requests', '--status'])).toMatchObject({ code: 2 });
    expect(await cli(['trigger', 'a', 'b'])).toMatchObject({ code: 2 });
    expect((await cli(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('answers a mistyped command or flag with the nearest one, and a missing argument with what is needed', async () => {
    const first = (r: { stderr: string }) => r.stderr.split('\n')[0];
    const clok = await cli(['clok', 'show']);
    expect(clok.code).toBe(2);
    expect(first(clok)).toBe("scheme-sim: unknown command 'clok'; did you mean clock?");
    const workdays = await cli(['clock', 'advance', '--workdays', '3']);
    expect(workdays.code).toBe(2);
    expect(first(workdays)).toBe('scheme-sim: unknown option --workdays; did you mean --working-days?');
    expect(workdays.stderr).toContain('Usage: scheme-sim clock advance');
    const noAction = await cli(['faults', 'set', '--route', '/v1/**']);
    expect(noAction.code).toBe(2);
    expect(first(noAction)).toBe('scheme-sim: faults set needs one of --drop, --latency, --status');
    const reports = await cli(['reports']);
    expect(reports.code).toBe(2);
    expect(first(reports)).toBe(
      'scheme-sim: reports needs inject TYPE (a report type of the catalogue, e.g. BACS_ARUDD)',
    );
    expect(first(await cli(['clock', 'shwo']))).toBe(
      "scheme-sim: unknown clock command 'shwo'; did you mean show? (clock takes show, freeze, resume, advance)",
    );
    // Nothing sent: no target line for a command line that never reached a simulator.
    expect(noAction.stderr).not.toContain(server.url);
    for (const status of ['banana', '4xxx']) {
      const wrong = await cli(['requests', '--status', status]);
      expect(wrong.code).toBe(2);
      expect(first(wrong)).toBe(`scheme-sim: --status takes 404 or a class such as 4xx, got '${status}'`);
    }
    const bare = await cli(['trigger']);
    expect(bare.code).toBe(2);
    expect(first(bare)).toBe('scheme-sim: trigger needs a scenario name (or --list for the catalogue)');
    expect(bare.stderr).toContain('Usage: scheme-sim trigger <scenario>');
    // A mistyped scenario: the nearest names of the catalogue the simulator serves, nothing played.
    const typo = await cli(['trigger', 'claim.contra_delay', '--target', crypto.randomUUID()]);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim().split('\n').at(-1)).toBe(
      "scheme-sim: no scenario 'claim.contra_delay' in the catalogue; did you mean claim.contra_delayed? (scheme-sim trigger --list shows every one)",
    );
  });

  it('prints help for each command', async () => {
    const help = await cli(['clock', 'advance', '--help']);
    expect(help.stdout).toContain('--working-days N');
    expect((await cli(['clock', '--help'])).stdout).toContain('Usage: scheme-sim clock <show|advance|freeze|resume>');
    expect((await cli(['start', '--help'])).stdout).toContain('--clock-start ISO');
  });
});

describe('scheme-sim start --clock', () => {
  it('starts frozen at the given instant', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'start', '--memory', '--port', '0', '--clock', 'frozen', '--clock-start', '2026-12-21T09:00:00Z'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) resolveUrl(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code} before listening: ${out}`)));
      });
      const health = (await (await fetch(`${url}/health`)).json()) as { now: string; clock: string };
      expect(health).toEqual({
        status: 'ok',
        now: '2026-12-21T09:00:00.000Z',
        clock: 'frozen',
        store: 'memory',
        auth: 'on',
      });
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('refuses a speed for a frozen clock and a start without a time zone', async () => {
    expect(await cli(['start', '--memory', '--clock', 'frozen', '--clock-speed', '2'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('running clock only'),
    });
    expect(await cli(['start', '--memory', '--clock-start', '2026-12-21T09:00:00'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--clock-start must be an ISO 8601 instant'),
    });
  });

  it('refuses a start outside the supported dates (1900-01-01 to 2199-12-31)', async () => {
    expect(
      await cli(['start', '--memory', '--clock', 'frozen', '--clock-start', '9999-12-28T09:00:00Z']),
    ).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        '--clock-start must be a London date from 1900-01-01 to 2199-12-31; got 9999-12-28T09:00:00Z',
      ),
    });
  });
});
