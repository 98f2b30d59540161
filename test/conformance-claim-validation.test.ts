import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import { harbourAsStaging } from './support/harbour-as-staging.ts';

// Claims that break a scheme rule, submitted on one harness run against a simulator treated
// strictly as staging, and their validation's outcome read on the next run through the ledger. A
// replay of the next day against a simulator whose clock stood still (validation never ran) diverges
// from Form3's promise, and that run must fail naming each case.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CUCUMBER = join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
const FEATURE = 'features/claims_validation_journey.feature';

let runtime: Runtime;
let server: RunningServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'validation-'));
  runtime = await createRuntime({ memory: true, clock: SchemeClock.frozenAt('2026-12-21T09:00:00Z') });
  server = await listen(runtime, 0);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function harness(today: string, ledger: string): Promise<{ code: number; out: string }> {
  const env = { ...harbourAsStaging(server.url), CONFORMANCE_LEDGER: join(dir, ledger), CONFORMANCE_TODAY: today };
  const args = [CUCUMBER, '--profile', 'staging', '--tags', '@journey', '--format', 'html:/dev/null', FEATURE];
  return promisify(execFile)(process.execPath, args, { cwd: ROOT, env, timeout: 120_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
  );
}

const journeys = (ledger: string) =>
  (JSON.parse(readFileSync(join(dir, ledger), 'utf8')) as { journeys: Array<Record<string, unknown>> }).journeys;

describe('claims refused at validation, read on the next harness run', () => {
  it('a run that finds no outcome yet fails naming the case; a day later each is validation_failed', async () => {
    // Day 0: three claims submitted; each journey waits for day 1.
    let run = await harness('2026-12-21', 'journeys.json');
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/conformance: 0 passed, 0 failed, 3 skipped/);
    expect(journeys('journeys.json').map((j) => j.waiting)).toEqual(Array(3).fill({ day: 1, due: '2026-12-22' }));

    // A copy of the ledger replayed as if a day had passed while the simulator's clock stood still:
    // validation has not run, so the outcome diverges from Form3's, and the run names the case.
    const copy = readFileSync(join(dir, 'journeys.json'), 'utf8');
    writeFileSync(join(dir, 'stuck.json'), copy);
    run = await harness('2026-12-22', 'stuck.json');
    expect(run.code, run.out).toBe(1);
    expect(run.out).toMatch(/3 failed/);
    expect(run.out).toMatch(/Divergences \(3\):/);
    expect(run.out).toMatch(
      /claims: claim [0-9a-f-]{36} \(reference must be DDIC followed by 2 to 14 letters\): submission status a day after # .*\n +expected "validation_failed"\n +actual +"validation_pending"/,
    );
    expect(journeys('stuck.json').every((j) => j.status === 'failed')).toBe(true);

    // Day 1 on the simulator's clock: validation has run; every journey completes.
    runtime.sim.scheduler.advanceTo(new Date('2026-12-22T09:00:00Z'));
    run = await harness('2026-12-22', 'journeys.json');
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/conformance: 3 passed, 0 failed\n/);
    expect(journeys('journeys.json').map((j) => j.status)).toEqual(['complete', 'complete', 'complete']);
  }, 240_000);
});
