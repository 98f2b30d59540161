import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HARBOUR, NORTHWIND } from '../../src/harness/test-runtime.ts';
import { type ClockState, createRuntime, listen, type RunningServer } from '../../src/index.ts';
import { SCENARIO_START, simTargetProblem } from './sim-target.ts';

let server: RunningServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const options = { ...NORTHWIND, resets: true, resetOk: false };
const frozen: ClockState = { mode: 'frozen', virtual_ms: Date.parse(SCENARIO_START), wall_ms: Date.now(), speed: 1 };

describe('simTargetProblem', () => {
  it('accepts a simulator in memory whose clock resets to the scenarios’ start', async () => {
    server = await listen(await createRuntime({ memory: true, clock: frozen }), 0);
    expect(await simTargetProblem(server.url, options)).toBeUndefined();
  });

  it('will not reset a data file unless allowed, and leaves it alone with SIM_RESET=0', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sim-target-'));
    const data = join(dir, 'sim.json');
    server = await listen(await createRuntime({ data, clock: frozen }), 0);
    expect(await simTargetProblem(server.url, options)).toMatch(/keeps a data file.*--reset-ok/);
    expect(await simTargetProblem(server.url, { ...options, resetOk: true })).toBeUndefined();
    expect(await simTargetProblem(server.url, { ...options, resets: false })).toBeUndefined();
  });

  it('names the clock the scenarios need when the simulator resets to another', async () => {
    server = await listen(await createRuntime({ memory: true }), 0); // running from the wall clock
    expect(await simTargetProblem(server.url, options)).toMatch(
      /expect the scheme clock frozen at 2026-12-21T09:00:00.000Z after a reset.*--clock frozen --clock-start/,
    );
  });

  it('names the admin role when its client may not reset everything', async () => {
    server = await listen(await createRuntime({ memory: true, clock: frozen }), 0);
    expect(await simTargetProblem(server.url, { ...options, ...HARBOUR })).toMatch(
      /refused a reset of everything \(403\)/,
    );
  });
});
