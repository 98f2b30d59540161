import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertMatchesSchema } from '../../../features/support/schema.ts';
import { SchemeClock } from '../../clock/scheme-clock.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime({ scheduledReports: true });
});
afterEach(() => rt.close());

async function inject(body: Record<string, unknown>, client = NORTHWIND): Promise<any> {
  const res = await rt.call('POST', '/v1/simulator/reports', body, { client });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

const get = (path: string, accept?: string, client = NORTHWIND) =>
  rt.call('GET', path, undefined, { client, headers: accept === undefined ? {} : { accept } });

describe('GET /v1/notification/reports/{id}/admissions/{admission_id}', () => {
  it('answers the admission with the report inside, and 404s it under another report', async () => {
    const first = await inject({ report_type: 'BACS_ARUDD' });
    const second = await inject({ report_type: 'BACS_AUDDIS' });
    const admissionId = first.data.relationships.report_admission.data[0].id;
    const res = await get(`/v1/notification/reports/${first.data.id}/admissions/${admissionId}`);
    expect(res.status).toBe(200);
    const json = (await res.json()) as any;
    assertMatchesSchema('report-admission-single', json);
    expect(json.links.self).toBe(`/v1/notification/reports/${first.data.id}/admissions/${admissionId}`);
    expect(json.data.relationships.report.data[0]).toMatchObject({
      id: first.data.id,
      attributes: first.data.attributes,
    });
    expect((await get(`/v1/notification/reports/${second.data.id}/admissions/${admissionId}`)).status).toBe(404);
    expect(
      (await get(`/v1/notification/reports/${first.data.id}/admissions/${admissionId}`, undefined, HARBOUR)).status,
    ).toBe(404);
    const bad = await get(`/v1/notification/reports/${first.data.id}/admissions/nope`);
    expect(((await bad.json()) as any).error_message).toBe('admission_id is not a valid uuid');
  });
});

describe('scheduled arrivals over HTTP', () => {
  it('bring the next working day’s reports when the clock advances, each with its created event', async () => {
    const events: string[] = [];
    rt.sim.events.on((e) => {
      const shown = rt.sim.paths.show(e.record);
      events.push(
        `${e.record_type}:${(shown.attributes as any).report_type ?? (shown.relationships as any)?.report?.data[0]?.attributes.report_type}`,
      );
    });
    const adv = await rt.call('POST', '/v1/simulator/clock/advance', { working_days: 1 });
    expect(adv.status).toBe(200);
    const json = (await (
      await get('/v1/notification/reports?filter[processing_date_from]=2026-12-21&filter[report_type]=BACS_ARUDD')
    ).json()) as any;
    expect(json.data.map((r: any) => r.attributes.processing_date)).toEqual(['2026-12-21']);
    expect(events).toContain('report_admissions:BACS_ARUDD');
    expect(events.filter((e) => e.startsWith('report_admissions:')).length).toBe(
      events.filter((e) => e.startsWith('reports:')).length,
    );
  });
});

describe('reports at the ends of the supported dates', () => {
  it('injects and schedules up to 2199-12-31; a clock outside the range gets a 409, never a 500', async () => {
    await rt.close();
    rt = await testRuntime({ scheduledReports: true, clockState: SchemeClock.frozenAt('2199-12-31T12:00:00Z') });
    expect((await rt.call('POST', '/v1/simulator/reports', { report_type: 'BACS_ARUDD' })).status).toBe(201);
    expect((await rt.call('POST', '/v1/simulator/clock/advance', { to: '2199-12-31T23:59:59.999Z' })).status).toBe(200);
    await rt.close();
    rt = await testRuntime({ scheduledReports: true, clockState: SchemeClock.frozenAt('9999-12-28T09:00:00Z') });
    const res = await rt.call('POST', '/v1/simulator/reports', { report_type: 'BACS_ARUDD' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as any).error_message).toContain('must be a date from 1900-01-01 to 2199-12-31');
  });

  it('names the range for a processing_date outside it', async () => {
    const res = await rt.call('POST', '/v1/simulator/reports', {
      report_type: 'BACS_ARUDD',
      processing_date: '0050-01-01',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error_message).toContain(
      'processing_date must be a date from 1900-01-01 to 2199-12-31',
    );
  });
});
