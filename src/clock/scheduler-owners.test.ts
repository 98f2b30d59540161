import { describe, expect, it } from 'vitest';
import { MapJobs } from '../../test/support/map-jobs.ts';
import { Scheduler } from './scheduler.ts';
import { SchemeClock } from './scheme-clock.ts';

describe('Scheduler and the organisations that own jobs', () => {
  function scheduler() {
    const clock = new SchemeClock({ initial: SchemeClock.frozenAt('2026-12-21T09:00:00Z') });
    const s = new Scheduler(clock, new MapJobs());
    s.handle('k', () => {});
    s.schedule('k', new Date('2026-12-22T00:00:00Z'), {}, 'a1', 'org-a');
    s.schedule('k', new Date('2026-12-21T12:00:00Z'), {}, 'b1', 'org-b');
    s.schedule('k', new Date('2026-12-23T00:00:00Z'), {}, 'a2', 'org-a');
    s.schedule('k', new Date('2026-12-24T00:00:00Z'), {}, 'shared');
    return s;
  }

  it('shows a viewer its own pending jobs and those of no organisation', () => {
    const s = scheduler();
    expect(s.pendingOf('org-a')).toEqual({ count: 3, next: new Date('2026-12-22T00:00:00Z') });
    expect(s.pendingOf('org-b')).toEqual({ count: 2, next: new Date('2026-12-21T12:00:00Z') });
    expect(s.pendingOf('org-c')).toEqual({ count: 1, next: new Date('2026-12-24T00:00:00Z') });
  });

  it('cancels every job of one organisation', () => {
    const s = scheduler();
    expect(s.cancelOwnedBy('org-a')).toBe(2);
    expect(s.pendingCount).toBe(2);
    expect(s.pendingOf('org-a').count).toBe(1); // the shared job
  });

  it('runs every due job but counts and lists only what the viewer may see', () => {
    const s = scheduler();
    const result = s.advanceTo(new Date('2026-12-25T00:00:00Z'), { viewer: 'org-b' });
    expect(result.jobs_run.map((r) => r.id)).toEqual(['b1', 'shared']);
    expect(result.jobs_run_count).toBe(2);
    expect(s.pendingCount).toBe(0);
  });
});
