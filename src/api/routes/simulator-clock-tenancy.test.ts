import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

describe('what an advance tells a client about other organisations', () => {
  it('runs every job but counts and lists only the caller’s own and those of no organisation', async () => {
    const rt = await testRuntime();
    rt.sim.scheduler.handle<{ organisation_id?: string }>('tenancy-probe', () => {});
    const at = new Date('2026-12-21T10:00:00.000Z');
    rt.sim.scheduler.schedule('tenancy-probe', at, {}, 'own-job', NORTHWIND.organisation_id);
    rt.sim.scheduler.schedule('tenancy-probe', at, {}, 'other-job', HARBOUR.organisation_id);
    rt.sim.scheduler.schedule('tenancy-probe', at, {}, 'shared-job');
    const res = await rt.call('POST', '/v1/simulator/clock/advance', { hours: 2 });
    const data = (
      (await res.json()) as {
        data: { jobs_run: Array<{ id: string }>; jobs_run_count: number; jobs_run_by_kind: Record<string, number> };
      }
    ).data;
    expect(data.jobs_run_count).toBe(2);
    expect(data.jobs_run_by_kind).toEqual({ 'tenancy-probe': 2 });
    expect(data.jobs_run.map((r) => r.id)).toEqual(['own-job', 'shared-job']);
    expect(JSON.stringify(data)).not.toContain(HARBOUR.organisation_id);
    expect(rt.sim.scheduler.pendingCount).toBe(0); // Harbour's job ran too
    await rt.close();
  });

  it('shows each organisation its own pending jobs and next due time', async () => {
    const rt = await testRuntime();
    rt.sim.scheduler.handle('tenancy-probe', () => {});
    rt.sim.scheduler.schedule(
      'tenancy-probe',
      new Date('2026-12-22T10:00:00.000Z'),
      {},
      'n1',
      NORTHWIND.organisation_id,
    );
    rt.sim.scheduler.schedule(
      'tenancy-probe',
      new Date('2026-12-23T10:00:00.000Z'),
      {},
      'n2',
      NORTHWIND.organisation_id,
    );
    rt.sim.scheduler.schedule('tenancy-probe', new Date('2026-12-21T12:00:00.000Z'), {}, 'h1', HARBOUR.organisation_id);
    const clock = async (client: typeof NORTHWIND) =>
      ((await (await rt.call('GET', '/v1/simulator/clock', undefined, { client })).json()) as { data: object }).data;
    expect(await clock(NORTHWIND)).toMatchObject({ pending_jobs: 2, next_due: '2026-12-22T10:00:00.000Z' });
    expect(await clock(HARBOUR)).toMatchObject({ pending_jobs: 1, next_due: '2026-12-21T12:00:00.000Z' });
    await rt.close();
  });

  it('lets only an admin client move the clock, and anyone with --auth off', async () => {
    const rt = await testRuntime();
    for (const [path, body] of [
      ['/v1/simulator/clock/advance', { hours: 1 }],
      ['/v1/simulator/clock/freeze', undefined],
      ['/v1/simulator/clock/resume', { speed: 2 }],
    ] as const) {
      const res = await rt.call('POST', path, body, { client: HARBOUR });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error_message: string }).error_message).toMatch(
        /the scheme clock needs a client with role admin; client harbour-dev \(8c2f1d4e-3b5a-4c6d-8e7f-9a0b1c2d3e4f\) has role member/,
      );
    }
    expect((await rt.call('GET', '/v1/simulator/clock', undefined, { client: HARBOUR })).status).toBe(200);
    expect((await rt.call('POST', '/v1/simulator/clock/advance', { hours: 1 })).status).toBe(200);
    await rt.close();
    const open = await testRuntime({ auth: 'off' });
    const res = await open.app.request('/v1/simulator/clock/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hours: 1 }),
    });
    expect(res.status).toBe(200);
    await open.close();
  });
});
