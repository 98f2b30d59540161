import { afterEach, describe, expect, it } from 'vitest';
import { TEST_START, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';

// A scheduled job is one unit of the store (Simulator passes store.atomically to the Scheduler):
// a handler that throws half way leaves no record, no job and no cancellation behind.

let rt: TestRuntime;
afterEach(() => rt.close());

const hours = (h: number) => new Date(Date.parse(TEST_START) + h * 3_600_000);

describe('scheduled jobs are atomic', () => {
  it('undoes the records, schedules and cancels of a job that throws, and runs the rest of the advance', async () => {
    rt = await testRuntime();
    const { scheduler, store } = rt.sim;
    const notes = store.collection<{ id: string; by: string }>('test_notes');
    const ran: string[] = [];
    scheduler.handle<{ name: string }>('test-note', (job) => {
      ran.push(job.payload.name);
      notes.put({ id: job.id, by: job.payload.name });
    });
    scheduler.handle('test-half-done', () => {
      notes.put({ id: 'half', by: 'test-half-done' });
      scheduler.schedule('test-note', hours(2), { name: 'follow-up' }, 'follow-up');
      scheduler.cancel('kept');
      throw new Error('failed half way');
    });
    scheduler.schedule('test-half-done', hours(1), null, 'boom');
    scheduler.schedule('test-note', hours(3), { name: 'kept' }, 'kept');

    const result = scheduler.advanceTo(hours(4));

    expect(result.jobs_run.map((r) => [r.id, r.error])).toEqual([
      ['boom', 'failed half way'],
      ['kept', undefined],
    ]);
    expect(ran).toEqual(['kept']); // the follow-up it scheduled never ran; the job it cancelled did
    expect(notes.has('half')).toBe(false);
    expect(notes.values().map((n) => n.by)).toEqual(['kept']);
    expect(scheduler.pendingCount).toBe(0);
    expect(store.collection('scheduler_jobs').size).toBe(0); // the failed job is not retried
  });

  it('keeps what a job did when it returns, and what earlier jobs of the advance did when a later one throws', async () => {
    rt = await testRuntime();
    const { scheduler, store } = rt.sim;
    const notes = store.collection<{ id: string }>('test_notes');
    scheduler.handle('test-ok', (job) => void notes.put({ id: job.id }));
    scheduler.handle('test-fail', (job) => {
      notes.put({ id: job.id });
      throw new Error('no');
    });
    scheduler.schedule('test-ok', hours(1), null, 'first');
    scheduler.schedule('test-fail', hours(2), null, 'second');
    scheduler.schedule('test-ok', hours(3), null, 'third');
    scheduler.advanceTo(hours(4));
    expect(notes.values().map((n) => n.id)).toEqual(['first', 'third']);
  });

  it('drops from the queue a job that a failed request-level unit scheduled, and brings back one it cancelled', async () => {
    rt = await testRuntime();
    const { scheduler, store } = rt.sim;
    const ran: string[] = [];
    scheduler.handle('test-probe', (job) => void ran.push(job.id));
    scheduler.schedule('test-probe', hours(2), null, 'kept');
    expect(() =>
      store.atomically(() => {
        scheduler.schedule('test-probe', hours(1), null, 'phantom');
        scheduler.cancel('kept');
        throw new Error('the request failed');
      }),
    ).toThrow('the request failed');
    expect(scheduler.pendingCount).toBe(1);
    scheduler.advanceTo(hours(3));
    expect(ran).toEqual(['kept']);
  });
});
