import { describe, expect, it } from 'vitest';
import { MapJobs } from '../../test/support/map-jobs.ts';
import { Scheduler } from './scheduler.ts';
import { SchemeClock } from './scheme-clock.ts';

const T0 = '2026-12-21T09:00:00.000Z';
const at = (h: number) => new Date(Date.parse(T0) + h * 3_600_000);

/** A scheduler with the same jobs each time: some chain further jobs inside the window, one fails. */
function setup(onCommit: (clockNow: string) => void = () => undefined) {
  const clock = new SchemeClock({ initial: SchemeClock.frozenAt(T0) });
  const scheduler = new Scheduler(clock, new MapJobs(), {
    commit: async () => onCommit(clock.now().toISOString()),
  });
  scheduler.onJobError = () => undefined;
  const seen: string[] = [];
  scheduler.handle<{ n: number }>('work', (job, now) => {
    seen.push(`${job.id}@${now.toISOString()}`);
    if (job.payload.n === 13) throw new Error('thirteen is unlucky');
    if (job.payload.n % 7 === 0) scheduler.schedule('work', new Date(now.getTime() + 1800_000), { n: 1 }, `${job.id}+`);
  });
  for (let n = 0; n < 60; n++) scheduler.schedule('work', at(n % 40), { n }, `j${n}`, n % 2 ? 'org-a' : undefined);
  return { clock, scheduler, seen };
}

describe('Scheduler.advanceInSlices', () => {
  it('runs the same jobs in the same order, with the same result, as advanceTo', async () => {
    const sync = setup();
    const expected = sync.scheduler.advanceTo(at(30), { viewer: 'org-b', list: 20 });
    const sliced = setup();
    sliced.scheduler.slice = { ms: 20, jobs: 3 };
    const result = await sliced.scheduler.advanceInSlices(at(30), { viewer: 'org-b', list: 20 });
    expect(result).toEqual(expected);
    expect(sliced.seen).toEqual(sync.seen);
    expect(sliced.clock.now()).toEqual(sync.clock.now());
    expect(sliced.scheduler.pendingCount).toBe(sync.scheduler.pendingCount);
  });

  it('reports a failing job and goes on with the rest of the advance', async () => {
    const { scheduler, seen } = setup();
    scheduler.slice = { ms: 20, jobs: 2 };
    const result = await scheduler.advanceInSlices(at(45));
    expect(result.jobs_run.filter((r) => r.error)).toEqual([
      { id: 'j13', kind: 'work', due: at(13).toISOString(), organisation_id: 'org-a', error: 'thirteen is unlucky' },
    ]);
    expect(result.jobs_run_count).toBe(seen.length);
    expect(seen.at(-1)).toMatch(/^j39@/);
    expect(scheduler.pendingCount).toBe(0);
  });

  it('ends each slice at the last job time, commits it, and stays advancing until the end', async () => {
    const boundaries: string[] = [];
    let scheduler!: Scheduler;
    const s = setup((now) => {
      boundaries.push(now);
      expect(scheduler.advancing).toBe(true);
    });
    scheduler = s.scheduler;
    scheduler.slice = { ms: 20, jobs: 10 };
    const result = await scheduler.advanceInSlices(at(50));
    expect(boundaries.length).toBeGreaterThanOrEqual(6);
    expect([...boundaries].sort()).toEqual(boundaries); // forward only
    // Each boundary is the time of a job that ran, never the target ahead of the work.
    const times = new Set(s.seen.map((x) => x.split('@')[1]));
    for (const b of boundaries) expect(times.has(b)).toBe(true);
    expect(scheduler.advancing).toBe(false);
    expect(result.now).toBe(at(50).toISOString());
  });

  /** Ten slices of two jobs, each commit settling 5 ms after it starts; what ran while one was written. */
  async function slicesOverCommits(overlapCommits: boolean) {
    const clock = new SchemeClock({ initial: SchemeClock.frozenAt(T0) });
    const pending: Array<{ settled: boolean; resolve: () => void }> = [];
    const ranDuringCommit: boolean[] = [];
    const scheduler = new Scheduler(clock, new MapJobs(), {
      overlapCommits,
      commit: () => {
        // The commit before the one before this one has settled (decision 044).
        expect(pending.slice(0, -1).every((c) => c.settled)).toBe(true);
        return new Promise<void>((resolve) => {
          const entry = { settled: false, resolve: () => undefined };
          entry.resolve = () => {
            entry.settled = true;
            resolve();
          };
          pending.push(entry);
          setTimeout(entry.resolve, 5);
        });
      },
    });
    scheduler.handle('work', () => ranDuringCommit.push(pending.some((c) => !c.settled)));
    for (let n = 0; n < 20; n++) scheduler.schedule('work', at(n), {}, `j${n}`);
    scheduler.slice = { ms: Infinity, jobs: 2 };
    await scheduler.advanceInSlices(at(30));
    expect(pending.length).toBe(9); // 10 slices; the last slice's commit is the caller's
    expect(pending.every((c) => c.settled)).toBe(true); // resolved once every commit it started was written
    return ranDuringCommit.filter(Boolean).length;
  }

  it('with overlapCommits, runs the next slice while a commit is written, one commit in flight at most', async () => {
    expect(await slicesOverCommits(true)).toBeGreaterThan(0);
  });

  it('without overlapCommits (a local engine), runs no job while a commit is written (decision 045)', async () => {
    expect(await slicesOverCommits(false)).toBe(0);
  });

  /** Ten slices of two jobs whose second commit fails ("the disk is full"): the jobs run by then, and those left. */
  async function advanceWithCommitTwoFailing(overlapCommits: boolean) {
    const clock = new SchemeClock({ initial: SchemeClock.frozenAt(T0) });
    let commits = 0;
    const scheduler = new Scheduler(clock, new MapJobs(), {
      overlapCommits,
      commit: async () => {
        if (++commits === 2) throw new Error('the disk is full');
      },
    });
    let ran = 0;
    scheduler.handle('work', () => ran++);
    for (let n = 0; n < 20; n++) scheduler.schedule('work', at(n), {}, `j${n}`);
    scheduler.slice = { ms: Infinity, jobs: 2 };
    await expect(scheduler.advanceInSlices(at(30))).rejects.toThrow('the disk is full');
    expect(scheduler.advancing).toBe(false);
    return { ran, pending: scheduler.pendingCount };
  }

  it('fails the advance when a slice cannot be committed, and stops it', async () => {
    // The second slice's commit failed; the third slice ran while it was written, no more.
    expect(await advanceWithCommitTwoFailing(true)).toEqual({ ran: 6, pending: 14 });
  });

  it('without overlapCommits, fails the advance at the slice whose commit failed, running no further job', async () => {
    expect(await advanceWithCommitTwoFailing(false)).toEqual({ ran: 4, pending: 16 });
  });

  // A slice here is a number of jobs and no time budget: whether the jobs run within the default
  // 10 ms is a fact about the machine's load (under load the advance was sliced and this failed).
  it('never awaits an advance that fits in one slice', () => {
    const jobs = setup().scheduler.advanceTo(at(50)).jobs_run_count;
    const { scheduler, clock } = setup();
    scheduler.slice = { ms: Infinity, jobs };
    void scheduler.advanceInSlices(at(50));
    expect(scheduler.advancing).toBe(false);
    expect(clock.now()).toEqual(at(50));
  });

  it('awaits an advance one job longer than a slice, and ends it', async () => {
    const jobs = setup().scheduler.advanceTo(at(50)).jobs_run_count;
    const { scheduler, clock } = setup();
    scheduler.slice = { ms: Infinity, jobs: jobs - 1 };
    const advance = scheduler.advanceInSlices(at(50));
    expect(scheduler.advancing).toBe(true);
    expect((await advance).jobs_run_count).toBe(jobs);
    expect(scheduler.advancing).toBe(false);
    expect(clock.now()).toEqual(at(50));
  });

  it('refuses a second advance while one is between slices', async () => {
    const { scheduler } = setup();
    scheduler.slice = { ms: 20, jobs: 1 };
    const first = scheduler.advanceInSlices(at(50));
    expect(scheduler.advancing).toBe(true);
    await expect(scheduler.advanceInSlices(at(60))).rejects.toThrow(/an advance is already running/);
    await first;
  });
});
