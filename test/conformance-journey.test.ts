import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import { harbourAsStaging } from './support/harbour-as-staging.ts';

// A claim journey completes across separate harness runs against a running simulator treated
// strictly as staging (the staging profile: no @simulator step), as Harbour, whose sort code is not
// the default one. Between runs the test moves the simulator's clock, as the days would pass.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CUCUMBER = join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');

let runtime: Runtime;
let server: RunningServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'journey-'));
  runtime = await createRuntime({
    memory: true,
    scheduledReports: true,
    clock: SchemeClock.frozenAt('2026-12-21T09:00:00Z'),
  });
  server = await listen(runtime, 0);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One harness run of the journeys with the staging profile; its exit code and output. */
async function harness(today: string): Promise<{ code: number; out: string }> {
  const env = {
    ...harbourAsStaging(server.url),
    CONFORMANCE_LEDGER: join(dir, 'journeys.json'),
    CONFORMANCE_TODAY: today,
  };
  // Only this journey: the others have tests of their own (conformance-claim-validation.test.ts).
  const args = [
    CUCUMBER,
    '--profile',
    'staging',
    '--tags',
    '@journey',
    '--format',
    'html:/dev/null',
    'features/claims_journey.feature',
  ];
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env, timeout: 60_000 });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

const ledger = () =>
  (JSON.parse(readFileSync(join(dir, 'journeys.json'), 'utf8')) as { journeys: Array<Record<string, unknown>> })
    .journeys;

async function advanceTo(date: string): Promise<void> {
  runtime.sim.scheduler.advanceTo(new Date(`${date}T09:00:00Z`));
  await runtime.sim.store.commit();
}

describe('a claim journey across harness runs', () => {
  it('completes in four runs a scheme day apart, and a run before a stage is due changes nothing', async () => {
    // Run 1, Monday 21 December 2026 (day 0): the claim is created and submitted.
    let run = await harness('2026-12-21');
    expect(run.code, run.out).toBe(0);
    expect(ledger()).toMatchObject([{ status: 'in_progress', started_on: '2026-12-21', done: { '0': '2026-12-21' } }]);
    expect(ledger()[0]!.waiting).toEqual({ day: 1, due: '2026-12-22' });
    // The console says which scenario waits, and why, once.
    expect(run.out).toMatch(
      /Skipped, with reasons:\n {2}claims: .* # features\/claims_journey\.feature:\d+\n {4}day 1 is due on 2026-12-22; today is 2026-12-21: the journey waits for a later run\n/,
    );

    // The same day again: nothing is due, nothing new starts.
    run = await harness('2026-12-21');
    expect(run.code, run.out).toBe(0);
    expect(ledger()).toHaveLength(1);
    expect(ledger()[0]!.done).toEqual({ '0': '2026-12-21' });

    // Run 2, day 1: the sequence number.
    await advanceTo('2026-12-22');
    run = await harness('2026-12-22');
    expect(run.code, run.out).toBe(0);
    expect(ledger()[0]).toMatchObject({ done: { '1': '2026-12-22' }, waiting: { day: 2, due: '2026-12-23' } });
    expect((ledger()[0]!.vars as Record<string, string>).claim_sequence_number).toMatch(/^\d+$/);

    // Run 3, day 2: delivered to the originator. Day 14 is Wednesday 13 January 2027.
    await advanceTo('2026-12-23');
    run = await harness('2026-12-23');
    expect(run.code, run.out).toBe(0);
    expect(ledger()[0]).toMatchObject({ waiting: { day: 14, due: '2027-01-13' } });

    // Run 4, day 14: the contra payment and its admission; the journey is complete.
    await advanceTo('2027-01-13');
    run = await harness('2027-01-13');
    expect(run.code, run.out).toBe(0);
    expect(ledger()[0]).toMatchObject({ status: 'complete', done: { '14': '2027-01-13' } });
    expect((ledger()[0]!.vars as Record<string, string>).claim_contra).toBeDefined();
  }, 180_000);
});
