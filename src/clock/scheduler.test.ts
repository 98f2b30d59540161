import { describe, expect, it } from 'vitest';
import { MapJobs } from '../../test/support/map-jobs.ts';
import { ManualClock } from './clock.ts';
import { Scheduler } from './scheduler.ts';
import { ClockError, SchemeClock } from './scheme-clock.ts';

const T0 = '2026-12-21T09:00:00.000Z';
const at = (h: number) => new Date(Date.parse(T0) + h * 3_600_000);

function setup() {
  const clock = new SchemeClock({ initial: SchemeClock.frozenAt(T0) });
  const jobs = new MapJobs();
  const scheduler = new Scheduler(clock, jobs);
  const seen: Array<{ name: string; now: string; clock: string }> = [];
  scheduler.handle<{ name: string }>('record', (job, now) => {
    seen.push({ name: job.payload.name, now: now.toISOString(), clock: clock.now().toISOString() });
  });
  return { clock, jobs, scheduler, seen };
}

describe('Scheduler', () => {
  it('runs due jobs in due order, ties in scheduling order, each seeing its own due as now', () => {
    const { clock, scheduler, seen } = setup();
    scheduler.schedule('record', at(3), { name: 'c' });
    scheduler.schedule('record', at(1), { name: 'a' });
    scheduler.schedule('record', at(2), { name: 'b1' });
    scheduler.schedule('record', at(2), { name: 'b2' });
    scheduler.schedule('record', at(5), { name: 'later' });
    const result = scheduler.advanceTo(at(4));
    expect(seen.map((s) => s.name)).toEqual(['a', 'b1', 'b2', 'c']);
    expect(seen.map((s) => s.clock)).toEqual([at(1), at(2), at(2), at(3)].map((d) => d.toISOString()));
    expect(seen.every((s) => s.now === s.clock)).toBe(true);
    expect(result).toMatchObject({ advanced_from: T0, now: at(4).toISOString(), next_due: at(5).toISOString() });
    expect(result.jobs_run.map((r) => r.due)).toEqual([at(1), at(2), at(2), at(3)].map((d) => d.toISOString()));
    expect(clock.now()).toEqual(at(4));
    expect(scheduler.pendingCount).toBe(1);
  });

  it('runs a job due exactly at the target, not one a millisecond after', () => {
    const { scheduler, seen } = setup();
    scheduler.schedule('record', at(2), { name: 'edge' });
    scheduler.schedule('record', new Date(at(2).getTime() + 1), { name: 'after' });
    scheduler.advanceTo(at(2));
    expect(seen.map((s) => s.name)).toEqual(['edge']);
  });

  it('runs jobs that jobs schedule inside the window, and keeps those beyond it', () => {
    const { clock, scheduler, seen } = setup();
    scheduler.handle<{ n: number }>('chain', (job, now) => {
      seen.push({ name: `chain${job.payload.n}`, now: now.toISOString(), clock: clock.now().toISOString() });
      scheduler.schedule('chain', new Date(now.getTime() + 3_600_000), { n: job.payload.n + 1 });
    });
    scheduler.schedule('chain', at(1), { n: 1 });
    const result = scheduler.advanceTo(at(3));
    expect(seen.map((s) => `${s.name}@${s.now}`)).toEqual([
      `chain1@${at(1).toISOString()}`,
      `chain2@${at(2).toISOString()}`,
      `chain3@${at(3).toISOString()}`,
    ]);
    expect(result.next_due).toBe(at(4).toISOString());
  });

  it('never shows time going back: a job scheduled for the past runs at the latest time shown', () => {
    const { clock, scheduler, seen } = setup();
    scheduler.handle('late', () => {
      scheduler.schedule('record', at(1), { name: 'past' });
    });
    scheduler.schedule('late', at(2), {});
    scheduler.schedule('record', at(-5), { name: 'before-start' });
    scheduler.advanceTo(at(3));
    expect(seen).toEqual([
      { name: 'before-start', now: T0, clock: T0 },
      { name: 'past', now: at(2).toISOString(), clock: at(2).toISOString() },
    ]);
    expect(clock.now()).toEqual(at(3));
  });

  it('skips cancelled jobs, and a job rescheduled under the same id runs at its new due only', () => {
    const { scheduler, seen } = setup();
    scheduler.schedule('record', at(1), { name: 'gone' }, 'job-1');
    scheduler.schedule('record', at(2), { name: 'kept' });
    scheduler.cancel('job-1');
    expect(scheduler.nextDue()).toEqual(at(2));
    scheduler.schedule('record', at(3), { name: 'again' }, 'job-1');
    scheduler.advanceTo(at(2));
    expect(seen.map((s) => s.name)).toEqual(['kept']);
    scheduler.advanceTo(at(3));
    expect(seen.map((s) => s.name)).toEqual(['kept', 'again']);
  });

  it('keeps the first job when the same id is scheduled twice', () => {
    const { scheduler, seen } = setup();
    scheduler.schedule('record', at(1), { name: 'first' }, 'same');
    const second = scheduler.schedule('record', at(2), { name: 'second' }, 'same');
    expect(second.payload).toEqual({ name: 'first' });
    scheduler.advanceTo(at(5));
    expect(seen.map((s) => s.name)).toEqual(['first']);
  });

  it('records a failing job and goes on; the job is removed', () => {
    const { scheduler, seen } = setup();
    const errors: string[] = [];
    scheduler.onJobError = (job) => errors.push(job.kind);
    scheduler.handle('boom', () => {
      throw new Error('handler exploded');
    });
    scheduler.schedule('boom', at(1), {});
    scheduler.schedule('nobody', at(1), {});
    scheduler.schedule('record', at(2), { name: 'after' });
    const result = scheduler.advanceTo(at(3));
    expect(result.jobs_run.map((r) => r.error)).toEqual([
      'handler exploded',
      'no handler for job kind nobody',
      undefined,
    ]);
    expect(errors).toEqual(['boom', 'nobody']);
    expect(seen.map((s) => s.name)).toEqual(['after']);
    expect(scheduler.pendingCount).toBe(0);
  });

  it('refuses to go back, an invalid target, and an advance from inside a job', () => {
    const { scheduler } = setup();
    expect(() => scheduler.advanceTo(at(-1))).toThrow(ClockError);
    expect(() => scheduler.advanceTo(new Date('nope'))).toThrow(/^the target is not a valid instant$/);
    scheduler.onJobError = () => {};
    scheduler.handle('nested', () => scheduler.advanceTo(at(10)));
    scheduler.schedule('nested', at(1), {});
    const result = scheduler.advanceTo(at(2));
    expect(result.jobs_run[0]!.error).toMatch(/already running/);
    expect(scheduler.advancing).toBe(false);
  });

  it('rebuilds its queue from the job store (restart), keeping the order of ties', () => {
    const { clock, jobs, scheduler } = setup();
    scheduler.schedule('record', at(2), { name: 'x' });
    scheduler.schedule('record', at(1), { name: 'y' });
    scheduler.schedule('record', at(1), { name: 'z' });
    const again = new Scheduler(clock, jobs);
    const names: string[] = [];
    again.handle<{ name: string }>('record', (job) => names.push(job.payload.name));
    const fresh = again.schedule('record', at(1), { name: 'new' });
    expect(fresh.seq).toBe(3);
    again.advanceTo(at(3));
    expect(names).toEqual(['y', 'z', 'new', 'x']);
  });

  it('runs what is due on a running clock with runDue', async () => {
    const wall = new ManualClock(T0);
    const clock = new SchemeClock({ initial: SchemeClock.runningFrom(T0, 60, wall), wall });
    const scheduler = new Scheduler(clock, new MapJobs());
    const names: string[] = [];
    scheduler.handle<{ name: string }>('record', (job) => names.push(job.payload.name));
    scheduler.schedule('record', at(1), { name: 'one-hour' });
    expect((await scheduler.runDue()).jobs_run).toHaveLength(0);
    wall.advanceMs(60_000); // a wall minute at speed 60 is a virtual hour
    expect((await scheduler.runDue()).jobs_run).toHaveLength(1);
    expect(names).toEqual(['one-hour']);
    expect(clock.mode).toBe('running');
  });

  it('lists runs up to a limit, failures always, and counts them all', () => {
    const { scheduler } = setup();
    scheduler.onJobError = () => {};
    scheduler.handle('boom', () => {
      throw new Error('late failure');
    });
    for (let i = 1; i <= 5; i++) scheduler.schedule('record', at(i / 10), { name: `r${i}` });
    scheduler.schedule('boom', at(1), {});
    const result = scheduler.advanceTo(at(2), { list: 2 });
    expect(result.jobs_run_count).toBe(6);
    expect(result.jobs_run.map((r) => r.kind)).toEqual(['record', 'record', 'boom']);
    expect(result.jobs_run[2]!.error).toBe('late failure');
  });

  it("keeps a job's owner in the job store and names it on the run, never reading the payload for it", () => {
    const { scheduler, jobs } = setup();
    scheduler.schedule('record', at(1), { name: 'owned', organisation_id: 'not-the-owner' }, 'owned', 'org-a');
    scheduler.schedule('record', at(1), { name: 'shared', organisation_id: 'org-b' }, 'shared');
    expect(jobs.get('owned')?.owner).toBe('org-a');
    expect(jobs.get('shared')).not.toHaveProperty('owner');
    const result = scheduler.advanceTo(at(2));
    expect(result.jobs_run.map((r) => [r.id, r.organisation_id])).toEqual([
      ['owned', 'org-a'],
      ['shared', undefined],
    ]);
  });

  it('refuses a second handler for a kind and an invalid due', () => {
    const { scheduler } = setup();
    expect(() => scheduler.handle('record', () => {})).toThrow(/already registered/);
    expect(() => scheduler.schedule('record', new Date(NaN), {})).toThrow(/not a valid date/);
  });
});

describe('Scheduler on a running clock', () => {
  function running(speed: number) {
    const wall = new ManualClock(T0);
    const clock = new SchemeClock({ initial: SchemeClock.runningFrom(T0, speed, wall), wall });
    const scheduler = new Scheduler(clock, new MapJobs());
    const ran: string[] = [];
    // Each job takes a wall millisecond: at speed 100,000 that is 100 virtual seconds.
    scheduler.handle<{ name: string }>('slow', (job) => {
      ran.push(job.payload.name);
      wall.advanceMs(1);
    });
    return { wall, clock, scheduler, ran };
  }

  it('does not fail an advance whose jobs ran while the clock passed the target', () => {
    const { clock, scheduler, ran } = running(100_000);
    const target = new Date(clock.now().getTime() + 10_000);
    scheduler.schedule('slow', new Date(target.getTime() - 1), { name: 'a' });
    scheduler.schedule('slow', target, { name: 'b' });
    const result = scheduler.advanceTo(target);
    expect(ran).toEqual(['a', 'b']);
    expect(result.jobs_run_count).toBe(2);
    expect(Date.parse(result.now)).toBeGreaterThan(target.getTime()); // the clock ran on past it
  });

  it('sets the clock without a second read that could find it past the target (a wall that ticks on every read)', () => {
    let ms = Date.parse(T0);
    const wall = { now: () => new Date(ms++) }; // every read is a wall millisecond later: 100 virtual seconds
    const clock = new SchemeClock({ initial: SchemeClock.runningFrom(T0, 100_000, wall), wall });
    const scheduler = new Scheduler(clock, new MapJobs());
    const from = clock.now();
    const target = new Date(from.getTime() + 150_000); // after the next read, before the one after
    const result = scheduler.advanceTo(target, { from });
    expect(result.advanced_from).toBe(from.toISOString());
    expect(Date.parse(result.now)).toBeGreaterThanOrEqual(target.getTime());
  });

  it('measures the target against the caller’s reading of now (from), not a second read', () => {
    const { wall, clock, scheduler } = running(100_000);
    const now = clock.now();
    wall.advanceMs(3); // the clock moves between the route's read and the advance
    const result = scheduler.advanceTo(now, { from: now });
    expect(result.advanced_from).toBe(now.toISOString());
    expect(clock.now().getTime()).toBe(now.getTime() + 300_000);
    expect(() => scheduler.advanceTo(now)).toThrow(ClockError); // without from, now is read again
  });
});
