import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import { createRuntime } from '../src/runtime.ts';
import { harbourAsStaging } from './support/harbour-as-staging.ts';

// The staging profile's report scenarios against a simulator made to diverge from the double:
// BACS_ARUDD offers no zipped_xhtml there (its catalogue entry edited in this test only, before
// any report arrives). The run must fail, naming the report type, the formats offered and the
// double's; every other report type still passes.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CUCUMBER = join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'diverging-'));
  const runtime = await createRuntime({ memory: true, clock: SchemeClock.frozenAt('2026-12-21T09:00:00Z') });
  const arudd = runtime.sim.reports.catalogue.get('BACS_ARUDD') as { formats: string[] };
  arudd.formats = arudd.formats.filter((f) => f !== 'zipped_xhtml');
  runtime.sim.scheduler.advanceTo(new Date('2026-12-23T09:00:00Z'));
  server = await listen(runtime, 0);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the staging profile against a simulator whose report formats diverge from the double', () => {
  it('fails the BACS_ARUDD scenario, naming the formats offered and the double’s', async () => {
    const env = {
      ...harbourAsStaging(server.url),
      CONFORMANCE_TODAY: '2026-12-23',
      CONFORMANCE_LEDGER: join(dir, 'journeys.json'),
    };
    const args = [CUCUMBER, '--profile', 'staging', '--tags', '@reports and not @journey', '--format', 'summary'];
    const run = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env, timeout: 180_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
    );
    expect(run.code, run.out.slice(-3000)).toBe(1);
    expect(run.out).toMatch(/conformance: \d+ passed, 1 failed/);
    // The failure and the run's table of divergences name the case, the expected and the actual formats.
    expect(run.out).toMatch(
      /divergence: BACS_ARUDD report [0-9a-f-]{36}: formats: expected \["pdf","xml","zipped_xhtml"\], got \["pdf","xml"\]/,
    );
    expect(run.out).toMatch(/Divergences \(1\):\n {2}1\) reports: BACS_ARUDD report [0-9a-f-]{36}: formats # /);
  }, 240_000);
});
