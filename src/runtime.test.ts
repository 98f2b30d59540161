import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedData } from '../test/support/stored-data.ts';
import { storedRecordProblem } from './api/stored-records.ts';
import { ManualClock } from './clock/clock.ts';
import { SchemeClock } from './clock/scheme-clock.ts';
import { createRuntime, type Runtime } from './runtime.ts';
import type { RecordCheck } from './store/load-check.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const T0 = '2026-12-21T09:00:00.000Z';
const hoursAfter = (h: number) => new Date(Date.parse(T0) + h * 3_600_000);

let dir: string;
let file: string;
const open: Runtime[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scheme-sim-clock-'));
  file = join(dir, 'sim.json');
});
afterEach(async () => {
  for (const rt of open.splice(0)) await rt.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The load check, with this test's own collection of job effects let through. */
const letEffectsThrough: RecordCheck = (collection, id, record) =>
  collection === 'effects' ? undefined : storedRecordProblem(collection, id, record);

async function start(options: Parameters<typeof createRuntime>[0] = {}): Promise<Runtime> {
  const rt = await createRuntime({ data: file, scheduledReports: false, storeCheck: letEffectsThrough, ...options });
  open.push(rt);
  return rt;
}
async function stop(rt: Runtime): Promise<void> {
  open.splice(open.indexOf(rt), 1);
  await rt.close();
}
const readStore = () => storedData(file);

/** A job kind whose effect is a row in the store, so the file shows which jobs ran. */
function withEffects(rt: Runtime, onRun: (n: number) => void = () => {}): void {
  let n = 0;
  rt.sim.scheduler.handle<{ n: number }>('effect', (job, now) => {
    rt.sim.store
      .collection<{ id: string; n: number; at: string }>('effects')
      .put({ id: job.id, n: job.payload.n, at: now.toISOString() });
    onRun(++n);
  });
}

describe('the data file lock', () => {
  it('is released when the runtime cannot be built on the opened store', async () => {
    await expect(
      createRuntime({ data: file, scheduledReports: false, clientsFile: join(dir, 'missing-clients.json') }),
    ).rejects.toThrow('cannot read');
    const rt = await start();
    expect(rt.sim.store.location).toBe(file);
  });
});

describe('scheme clock across a restart (--data file)', () => {
  it('a frozen clock keeps its virtual time and its pending jobs; they run once after the restart', async () => {
    const a = await start({ clock: SchemeClock.frozenAt(T0) });
    withEffects(a);
    for (let i = 1; i <= 4; i++) a.sim.scheduler.schedule('effect', hoursAfter(i * 24), { n: i }, `job-${i}`);
    a.sim.scheduler.advanceTo(hoursAfter(48));
    await stop(a);

    const b = await start({ clock: SchemeClock.frozenAt('2030-01-01T00:00:00Z') });
    withEffects(b);
    expect(b.sim.clock.now()).toEqual(hoursAfter(48));
    expect(b.sim.clock.mode).toBe('frozen');
    expect(b.sim.scheduler.pendingCount).toBe(2);
    expect(b.sim.scheduler.nextDue()).toEqual(hoursAfter(72));
    const result = b.sim.scheduler.advanceTo(hoursAfter(100));
    expect(result.jobs_run.map((r) => r.id)).toEqual(['job-3', 'job-4']);
    expect(b.sim.store.collection('effects').size).toBe(4);
  });

  it('a running clock keeps its offset from the wall clock (and its speed)', async () => {
    const wall = new ManualClock('2026-11-21T06:00:00.000Z');
    const a = await start({ wall, clock: SchemeClock.runningFrom(T0, 2, wall) });
    wall.advanceMs(10_000);
    expect(a.sim.clock.now().toISOString()).toBe('2026-12-21T09:00:20.000Z');
    await stop(a);
    wall.advanceMs(30_000); // the simulator is down for 30 wall seconds
    const b = await start({ wall });
    expect(b.sim.clock.mode).toBe('running');
    expect(b.sim.clock.speed).toBe(2);
    expect(b.sim.clock.now().toISOString()).toBe('2026-12-21T09:01:20.000Z');
  });

  it('a crash in the middle of an advance loses no job: the file still shows the time before it, jobs pending', async () => {
    const setup = await start({ clock: SchemeClock.frozenAt(T0) });
    for (let i = 1; i <= 5; i++) setup.sim.scheduler.schedule('effect', hoursAfter(i), { n: i }, `job-${i}`);
    await stop(setup);

    // A separate process runs the advance and dies (exit, no flush) inside the third job.
    const script = join(dir, 'crash.mts');
    writeFileSync(
      script,
      `import { createRuntime } from ${JSON.stringify(join(ROOT, 'src/runtime.ts'))};
const rt = await createRuntime({ data: ${JSON.stringify(file)}, scheduledReports: false });
let n = 0;
rt.sim.scheduler.handle('effect', (job) => {
  rt.sim.store.collection('effects').put({ id: job.id });
  if (++n === 3) process.exit(137);
});
rt.sim.scheduler.advanceTo(new Date(${JSON.stringify(hoursAfter(10).toISOString())}));
await rt.sim.store.commit();
`,
    );
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.status, child.stderr).toBe(137);

    const onDisk = await readStore();
    expect(onDisk.meta.clock).toMatchObject({ virtual_ms: Date.parse(T0) });
    expect(Object.keys(onDisk.collections.scheduler_jobs ?? {}).sort()).toEqual([
      'job-1',
      'job-2',
      'job-3',
      'job-4',
      'job-5',
    ]);
    expect(Object.keys(onDisk.collections.effects ?? {})).toEqual([]);

    const after = await start();
    withEffects(after);
    const result = after.sim.scheduler.advanceTo(hoursAfter(10));
    expect(result.jobs_run).toHaveLength(5);
    await after.sim.store.commit();
    const done = await readStore();
    expect(Object.keys(done.collections.scheduler_jobs ?? {})).toEqual([]);
    expect(Object.keys(done.collections.effects ?? {}).sort()).toEqual(['job-1', 'job-2', 'job-3', 'job-4', 'job-5']);
    expect(done.meta.clock).toMatchObject({ virtual_ms: hoursAfter(10).getTime() });
  });

  it('a write racing an advance holds the state before it or after it, never a mix', async () => {
    const rt = await start({ clock: SchemeClock.frozenAt(T0) });
    withEffects(rt);
    for (let i = 1; i <= 200; i++) rt.sim.scheduler.schedule('effect', hoursAfter(i / 10), { n: i });
    const inFlight = rt.sim.store.commit(); // snapshot taken now, written while the advance runs
    rt.sim.scheduler.advanceTo(hoursAfter(24));
    const next = rt.sim.store.commit();
    await inFlight;
    const first = await readStore();
    const pending = Object.keys(first.collections.scheduler_jobs ?? {}).length;
    const effects = Object.keys(first.collections.effects ?? {}).length;
    const clock = (first.meta.clock as { virtual_ms: number }).virtual_ms;
    expect([
      [200, 0, Date.parse(T0)],
      [0, 200, hoursAfter(24).getTime()],
    ]).toContainEqual([pending, effects, clock]);
    await next;
    const last = await readStore();
    expect(Object.keys(last.collections.effects ?? {})).toHaveLength(200);
    expect((last.meta.clock as { virtual_ms: number }).virtual_ms).toBe(hoursAfter(24).getTime());
  });

  it('on a running clock, the timer worker runs due jobs and commits them to the file', async () => {
    const wall = new ManualClock(T0);
    const rt = await start({ wall, clock: SchemeClock.runningFrom(T0, 1, wall), clockTimerMs: 5 });
    withEffects(rt);
    rt.sim.scheduler.schedule('effect', hoursAfter(1), { n: 1 }, 'soon');
    rt.sim.scheduler.schedule('effect', hoursAfter(3), { n: 2 }, 'later');
    await rt.sim.store.commit();
    rt.start();
    wall.advanceMs(3_600_000);
    await expect
      .poll(async () => Object.keys((await readStore()).collections.effects ?? {}), { timeout: 5000, interval: 10 })
      .toEqual(['soon']);
    expect((await readStore()).collections.effects!.soon).toMatchObject({ at: hoursAfter(1).toISOString() });
    expect(Object.keys((await readStore()).collections.scheduler_jobs ?? {})).toEqual(['later']);
    // Frozen, the timer leaves due jobs alone until the clock is told to move.
    rt.sim.clock.freeze();
    wall.advanceMs(3 * 3_600_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(rt.sim.scheduler.pendingCount).toBe(1);
  });
});
