// Scheduler throughput: 100,000 jobs spread over two years of scheme time, run by advancing the
// clock through them, each job writing a record, with the store persisted to a real data file once
// per advance. Budget (docs/design.md): at least 50,000 jobs/s. The baseline is the same advance over an
// empty schedule (clock move + one store write), measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import { type BenchReport, runWhenMain } from './lib.ts';

export const BUDGET_JOBS_PER_SECOND = 50_000;
const START = '2027-01-04T09:00:00.000Z';
const TWO_YEARS_MS = 730 * 86_400_000;

/** Deterministic pseudo-random numbers (mulberry32), so every run schedules the same dues. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function runtimeIn(dir: string, name: string): Promise<Runtime> {
  const rt = await createRuntime({
    data: join(dir, `${name}.json`),
    scheduledReports: false,
    clock: SchemeClock.frozenAt(START),
  });
  rt.sim.scheduler.handle<{ n: number }>('bench', (job, now) => {
    rt.sim.store
      .collection<{ id: string; n: number; at: string }>('bench_effects')
      .put({ id: job.id, n: job.payload.n, at: now.toISOString() });
  });
  return rt;
}

/** Advances `rt` by `ms` and persists; returns the wall and CPU milliseconds and the jobs run. */
async function timedAdvance(
  rt: Runtime,
  ms: number,
): Promise<{ ms: number; cpuMs: number; writeMs: number; jobs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = rt.sim.scheduler.advanceTo(new Date(rt.sim.clock.now().getTime() + ms), { list: 1000 }); // as the HTTP route does
  const t1 = performance.now();
  await rt.sim.store.commit();
  const cpu = process.cpuUsage(cpu0);
  return {
    ms: performance.now() - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    writeMs: performance.now() - t1,
    jobs: result.jobs_run_count,
  };
}

function scheduleAll(rt: Runtime, jobs: number): void {
  const rnd = random(20261221);
  for (let n = 0; n < jobs; n++)
    rt.sim.scheduler.schedule('bench', new Date(Date.parse(START) + 1 + Math.floor(rnd() * TWO_YEARS_MS)), { n });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString('en-GB');

export async function run(options: { jobs?: number } = {}): Promise<BenchReport> {
  const jobs = options.jobs ?? 100_000;
  const dir = mkdtempSync(join(tmpdir(), 'scheme-sim-bench-clock-'));
  try {
    // Warm-up (JIT), not measured: a small schedule through the same code.
    const warm = await runtimeIn(dir, 'warm-up');
    scheduleAll(warm, Math.min(jobs, 10_000));
    await timedAdvance(warm, TWO_YEARS_MS);
    await warm.close();

    // Baseline: the same two-year advance over an empty schedule (median of 9).
    const empty = await runtimeIn(dir, 'empty');
    const emptyRuns: number[] = [];
    for (let i = 0; i < 9; i++) emptyRuns.push((await timedAdvance(empty, TWO_YEARS_MS)).ms);
    await empty.close();
    const emptyMs = median(emptyRuns);

    // One advance through every job.
    const rt = await runtimeIn(dir, 'one-advance');
    const s0 = performance.now();
    scheduleAll(rt, jobs);
    await rt.sim.store.commit();
    const scheduleMs = performance.now() - s0;
    const one = await timedAdvance(rt, TWO_YEARS_MS);
    if (
      one.jobs !== jobs ||
      rt.sim.scheduler.pendingCount !== 0 ||
      rt.sim.store.collection('bench_effects').size !== jobs
    ) {
      throw new Error(
        `bench/clock: expected ${jobs} jobs run and none pending, got ${one.jobs} run and ${rt.sim.scheduler.pendingCount} pending`,
      );
    }
    await rt.close();

    // The same jobs, advanced a month at a time (24 advances, 24 store writes).
    const monthly = await runtimeIn(dir, 'monthly');
    scheduleAll(monthly, jobs);
    await monthly.sim.store.commit();
    let monthlyMs = 0;
    let monthlyJobs = 0;
    for (let m = 0; m < 24; m++) {
      const r = await timedAdvance(monthly, TWO_YEARS_MS / 24);
      monthlyMs += r.ms;
      monthlyJobs += r.jobs;
    }
    await monthly.close();
    if (monthlyJobs !== jobs) throw new Error(`bench/clock: monthly advances ran ${monthlyJobs} of ${jobs} jobs`);

    const perSecond = (jobs / one.ms) * 1000;
    const monthlyPerSecond = (jobs / monthlyMs) * 1000;
    return {
      name: 'clock: scheduler advance',
      withinBudget: perSecond >= BUDGET_JOBS_PER_SECOND,
      lines: [
        `${fmt(jobs)} jobs over two years, each writing a record, data file persisted once per advance`,
        `one advance through all: ${one.ms.toFixed(0)} ms = ${fmt(perSecond)} jobs/s (budget ≥ ${fmt(BUDGET_JOBS_PER_SECOND)} jobs/s)`,
        `  of which the store write (${fmt(jobs)} records to the data file): ${one.writeMs.toFixed(0)} ms`,
        `  CPU time of that advance: ${one.cpuMs.toFixed(0)} ms = ${fmt((jobs / one.cpuMs) * 1000)} jobs per CPU second; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
        `baseline, the same advance over an empty schedule: ${emptyMs.toFixed(2)} ms; ratio ${(one.ms / emptyMs).toFixed(1)}× (${(((one.ms - emptyMs) / jobs) * 1000).toFixed(2)} µs per job)`,
        `24 monthly advances through the same jobs: ${monthlyMs.toFixed(0)} ms = ${fmt(monthlyPerSecond)} jobs/s`,
        `scheduling them: ${scheduleMs.toFixed(0)} ms = ${fmt((jobs / scheduleMs) * 1000)} jobs/s (one store write)`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await runWhenMain(import.meta.url, run);
