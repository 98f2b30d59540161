import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock/clock.ts';
import { MAX_SPEED, SchemeClock } from '../../clock/scheme-clock.ts';
import { assertMatchesSchema } from '../../harness/assert-schema.ts';
import { TEST_START, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const advance = (body: unknown) => rt.call('POST', '/v1/simulator/clock/advance', body);
async function json(res: Response): Promise<any> {
  return res.json();
}
async function expectError(res: Response, status: number, message: RegExp): Promise<void> {
  const body = await json(res);
  expect({ status: res.status, message: body.error_message }).toMatchObject({
    status,
    message: expect.stringMatching(message),
  });
}

describe('GET /v1/simulator/clock', () => {
  it('shows the frozen test clock', async () => {
    const res = await rt.call('GET', '/v1/simulator/clock');
    expect(res.status).toBe(200);
    const body = await json(res);
    assertMatchesSchema('clock', body);
    expect(body.data).toEqual({
      now: TEST_START,
      mode: 'frozen',
      speed: 1,
      london_date: '2026-12-21',
      bacs_working_day: true,
      next_due: null,
      pending_jobs: 0,
    });
  });

  it('needs a bearer token and answers 405 to other methods', async () => {
    expect((await rt.app.request('/v1/simulator/clock')).status).toBe(401);
    expect((await rt.call('DELETE', '/v1/simulator/clock')).status).toBe(405);
    expect((await rt.call('GET', '/v1/simulator/clock/advance')).status).toBe(405);
  });
});

describe('POST /v1/simulator/clock/advance', () => {
  it('advances working days over Christmas, runs what fell due, and says what is next', async () => {
    const ran: string[] = [];
    rt.sim.scheduler.handle('probe', (job, now) => ran.push(`${job.id}@${now.toISOString()}`));
    rt.sim.scheduler.schedule('probe', new Date('2026-12-29T08:00:00Z'), {}, 'first');
    rt.sim.scheduler.schedule('probe', new Date('2027-01-05T08:00:00Z'), {}, 'later');
    await advance({ working_days: 3 });
    const res = await advance({ working_days: 1 });
    expect(res.status).toBe(200);
    const body = await json(res);
    assertMatchesSchema('clock-advanced', body);
    expect(body.data).toMatchObject({
      advanced_from: '2026-12-24T09:00:00.000Z',
      now: '2026-12-29T09:00:00.000Z',
      mode: 'frozen',
      jobs_run_count: 1,
      jobs_run: [{ id: 'first', kind: 'probe', due: '2026-12-29T08:00:00.000Z' }],
      next_due: '2027-01-05T08:00:00.000Z',
      pending_jobs: 1,
    });
    expect(ran).toEqual(['first@2026-12-29T08:00:00.000Z']);
  });

  it('advances days, hours, and to an instant; `to` the current time is a no-op', async () => {
    expect((await json(await advance({ days: 2 }))).data.now).toBe('2026-12-23T09:00:00.000Z');
    expect((await json(await advance({ hours: 5 }))).data.now).toBe('2026-12-23T14:00:00.000Z');
    expect((await json(await advance({ to: '2026-12-31T17:30:00+00:00' }))).data.now).toBe('2026-12-31T17:30:00.000Z');
    const again = await advance({ to: '2026-12-31T17:30:00Z' });
    expect(again.status).toBe(200);
    expect((await json(again)).data).toMatchObject({ now: '2026-12-31T17:30:00.000Z', jobs_run_count: 0 });
    expect((await json(await advance({ days: 0 }))).data.now).toBe('2026-12-31T17:30:00.000Z');
  });

  it('answers 400 naming the field and rule for bad bodies', async () => {
    await expectError(
      await advance({ working_days: 1, days: 2 }),
      400,
      /exactly one of working_days, days, hours, to; got working_days and days/,
    );
    await expectError(await advance({}), 400, /exactly one of working_days, days, hours, to; got none/);
    await expectError(await advance({ days: -1 }), 400, /days in body should be greater than or equal to 0/);
    await expectError(await advance({ hours: 1.5 }), 400, /hours in body must be of type integer/);
    await expectError(await advance({ working_days: '2' }), 400, /working_days in body must be of type integer/);
    await expectError(await advance({ weeks: 1 }), 400, /weeks in body is not allowed/);
    await expectError(await advance({ days: 1, note: 'x' }), 400, /note in body is not allowed/);
    await expectError(await advance({ to: '2027-01-01' }), 400, /to in body must be of type date-time/);
    await expectError(await advance({ to: '2026-12-31T23:59:60Z' }), 400, /^to is not a valid instant$/);
    await expectError(await advance([{ days: 1 }]), 400, /body must be a JSON object/);
    await expectError(await advance('{"days": 1'), 400, /not valid JSON/);
    await expectError(await advance(''), 400, /empty/);
    const res = await rt.call('POST', '/v1/simulator/clock/advance', 'days=1', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
  });

  it('refuses more than five years ahead (400) and a `to` in the past (409)', async () => {
    await expectError(await advance({ days: 1828 }), 400, /days in body should be less than or equal to 1827/);
    await expectError(
      await advance({ to: '2031-12-21T09:00:00.001Z' }),
      400,
      /^to moves the clock to 2031-12-21T09:00:00.001Z, more than 5 years/,
    );
    expect((await advance({ to: '2031-12-21T09:00:00.000Z' })).status).toBe(200);
    await expectError(
      await advance({ to: '2026-12-22T09:00:00Z' }),
      409,
      /^to \(2026-12-22T09:00:00.000Z\) is before the scheme clock \(2031-12-21T09:00:00.000Z\)/,
    );
  });

  it('serialises concurrent advances: each job runs once, both advances count', async () => {
    const runs = new Map<string, number>();
    // One slice, whatever the machine's load: an advance that gave the event loop back would be
    // running when the second request arrives, which is refused by design (409), not queued.
    rt.sim.scheduler.slice = { ms: Number.POSITIVE_INFINITY, jobs: Number.POSITIVE_INFINITY };
    rt.sim.scheduler.handle('count', (job) => runs.set(job.id, (runs.get(job.id) ?? 0) + 1));
    for (let i = 0; i < 50; i++)
      rt.sim.scheduler.schedule('count', new Date(Date.parse(TEST_START) + i * 45 * 60_000), {}, `job-${i}`);
    const [a, b] = await Promise.all([advance({ working_days: 1 }), advance({ working_days: 1 })]);
    const [ja, jb] = [await json(a), await json(b)];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([ja.data.now, jb.data.now].sort()).toEqual(['2026-12-22T09:00:00.000Z', '2026-12-23T09:00:00.000Z']);
    expect(ja.data.jobs_run_count + jb.data.jobs_run_count).toBe(50);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(runs.size).toBe(50);
  });

  it('advances a running clock, which runs on from the new time', async () => {
    await rt.call('POST', '/v1/simulator/clock/resume', { speed: 1 });
    rt.wall.advanceMs(30_000);
    const body = await json(await advance({ hours: 2 }));
    expect(body.data).toMatchObject({
      mode: 'running',
      advanced_from: '2026-12-21T09:00:30.000Z',
      now: '2026-12-21T11:00:30.000Z',
    });
    rt.wall.advanceMs(1000);
    expect((await json(await rt.call('GET', '/v1/simulator/clock'))).data.now).toBe('2026-12-21T11:00:31.000Z');
  });

  it('lists at most 1000 runs but counts them all', async () => {
    rt.sim.scheduler.handle('many', () => {});
    for (let i = 0; i < 1200; i++) rt.sim.scheduler.schedule('many', new Date(Date.parse(TEST_START) + 1000 + i), {});
    const body = await json(await advance({ hours: 1 }));
    expect(body.data.jobs_run_count).toBe(1200);
    expect(body.data.jobs_run).toHaveLength(1000);
  });
});

describe('POST /v1/simulator/clock/freeze and /resume', () => {
  it('resumes at a speed, freezes where it got to, and resumes at the kept speed', async () => {
    const resumed = await rt.call('POST', '/v1/simulator/clock/resume', { speed: 60 });
    expect(resumed.status).toBe(200);
    assertMatchesSchema('clock', await json(resumed.clone()));
    expect((await json(resumed)).data).toMatchObject({ mode: 'running', speed: 60, now: TEST_START });
    rt.wall.advanceMs(60_000);
    const frozen = await json(await rt.call('POST', '/v1/simulator/clock/freeze'));
    expect(frozen.data).toMatchObject({ mode: 'frozen', now: '2026-12-21T10:00:00.000Z' });
    rt.wall.advanceMs(60_000);
    expect((await json(await rt.call('GET', '/v1/simulator/clock'))).data.now).toBe('2026-12-21T10:00:00.000Z');
    const again = await json(await rt.call('POST', '/v1/simulator/clock/resume', {}));
    expect(again.data).toMatchObject({ mode: 'running', speed: 60 });
  });

  it('rejects a bad speed and unknown keys', async () => {
    await expectError(
      await rt.call('POST', '/v1/simulator/clock/resume', { speed: 0 }),
      400,
      /speed in body should be greater than 0/,
    );
    await expectError(
      await rt.call('POST', '/v1/simulator/clock/resume', { speed: 'fast' }),
      400,
      /speed in body must be of type number/,
    );
    await expectError(
      await rt.call('POST', '/v1/simulator/clock/resume', { speed: 2e6 }),
      400,
      /speed in body should be less than or equal to 1000000/,
    );
    await expectError(
      await rt.call('POST', '/v1/simulator/clock/freeze', { now: true }),
      400,
      /now in body is not allowed/,
    );
    expect(rt.sim.clock.mode).toBe('frozen');
  });
});

describe('POST /v1/simulator/clock/advance: the supported dates (up to 2199-12-31)', () => {
  it('answers 400 naming the unit for a target past 2199-12-31, from near the end of the range', async () => {
    await rt.close();
    rt = await testRuntime({ clockState: SchemeClock.frozenAt('2199-12-28T09:00:00Z') });
    for (const body of [{ working_days: 5 }, { days: 4 }, { hours: 96 }, { to: '2200-01-01T00:00:00Z' }]) {
      const unit = Object.keys(body)[0]!;
      await expectError(
        await advance(body),
        400,
        new RegExp(
          `^${unit} moves the clock .*outside the dates the simulator supports \\(1900-01-01 to 2199-12-31\\)`,
        ),
      );
    }
    const ok = await advance({ to: '2199-12-31T23:59:59.999Z' });
    expect(ok.status).toBe(200);
  });

  it('answers 400, never hangs, with a clock already outside the range (9999-12-28)', async () => {
    await rt.close();
    rt = await testRuntime({ clockState: SchemeClock.frozenAt('9999-12-28T09:00:00Z') });
    await expectError(
      await advance({ working_days: 5 }),
      400,
      /^working_days moves the clock outside the dates the simulator supports/,
    );
    await expectError(await advance({ days: 1 }), 400, /^days moves the clock outside/);
    await expectError(await advance({ hours: 1 }), 400, /^hours moves the clock to .*outside the dates/);
    const clock = await json(await rt.call('GET', '/v1/simulator/clock'));
    expect(clock.data).toMatchObject({ london_date: '9999-12-28', bacs_working_day: false });
    const cal = await rt.call('GET', '/v1/simulator/calendar');
    await expectError(
      cal,
      409,
      /^the scheme clock's date 9999-12-28 is outside the dates the simulator supports .*give from in query/,
    );
  });

  it('reads now once: {"hours": 0} and a `to` of now succeed on a fast running clock', async () => {
    await rt.close();
    rt = await testRuntime({ wall: systemClock, clockState: SchemeClock.runningFrom(TEST_START, MAX_SPEED) });
    for (let i = 0; i < 20; i++) {
      const res = await advance({ hours: 0 });
      expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
    }
  });
});
