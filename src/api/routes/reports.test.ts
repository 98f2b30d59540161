import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseXml, pdfText, unzipXhtml } from '../../../features/support/report-files.ts';
import { assertMatchesSchema } from '../../../features/support/schema.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../../test/support/testing.ts';
import { SchemeClock } from '../../clock/scheme-clock.ts';

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
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe('POST /v1/simulator/reports', () => {
  it('201s with the report, its format links and the admission', async () => {
    const json = await inject({ report_type: 'BACS_ARUDD', processing_date: '2026-12-18' });
    assertMatchesSchema('report-single', json);
    const id = json.data.id;
    expect(json.data.attributes).toMatchObject({
      report_type: 'BACS_ARUDD',
      processing_date: '2026-12-18',
      generation_time: '2026-12-21T09:00:00.000Z',
    });
    expect(json.links).toEqual({
      self: { href: `/v1/notification/reports/${id}` },
      pdf: { href: `/v1/notification/reports/${id}`, meta: { 'content-type': 'application/pdf' } },
      xml: { href: `/v1/notification/reports/${id}`, meta: { 'content-type': 'application/xml' } },
      zipped_xhtml: { href: `/v1/notification/reports/${id}`, meta: { 'content-type': 'application/xhtml+zip' } },
    });
    expect(json.included[0]).toMatchObject({ type: 'report_admissions', attributes: { status: 'delivery_confirmed' } });
  });

  it('400s bodies that break the schema or the catalogue, 403s another organisation, 422s a sponsor-only report for a non-sponsor', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{}, 400, 'report_type in body is required'],
      [
        { report_type: 'BACS_ARUDD', processing_date: '18/12/2026' },
        400,
        'processing_date in body must be of type date',
      ],
      [{ report_type: 'BACS_ARUDD', colour: 'red' }, 400, 'colour in body is not allowed'],
      [
        { report_type: 'BACS_ARUDD', rows: [{ a: { nested: true } }] },
        400,
        'rows.0.a in body must be of type string,number,boolean,null',
      ],
      [{ report_type: 'NOPE' }, 400, 'report_type NOPE is not in the report catalogue'],
      [
        { report_type: 'BACS_ARUDD', rows: [{ Note: 'x'.repeat(201) }] },
        400,
        'rows.0.Note in body should be at most 200 chars long',
      ],
      [
        { report_type: 'BACS_ARUDD', rows: [Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`k${i}`, 1]))] },
        400,
        'rows.0 in body should have at most 40 properties',
      ],
      [
        { report_type: 'BACS_ARUDD', rows: Array.from({ length: 41 }, (_, i) => ({ [`k${i}`]: 1 })) },
        400,
        'rows in body should have at most 40 distinct keys (columns) across all rows',
      ],
      [
        { report_type: 'BACS_ARUDD', rows: Array.from({ length: 6667 }, () => ({ a: 1, b: 2, c: 3 })) },
        400,
        'rows in body should have at most 20000 cells (rows × distinct keys); got 6667 rows × 3 keys = 20001',
      ],
      [
        { report_type: 'BACS_ARUDD', organisation_id: HARBOUR.organisation_id },
        403,
        'not the organisation of this client',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await rt.call('POST', '/v1/simulator/reports', body);
      const json = (await res.json()) as any;
      expect(res.status, JSON.stringify(body)).toBe(status);
      assertMatchesSchema('error', json);
      expect(json.error_message).toContain(message);
    }
    const res = await rt.call(
      'POST',
      '/v1/simulator/reports',
      { report_type: 'FPS_SPONSORED_PARTICIPANT' },
      { client: HARBOUR },
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).error_message).toContain('only available to organisations that sponsor');
    expect((await rt.call('POST', '/v1/simulator/reports', '{"report_type":')).status).toBe(400);
    expect(
      (await rt.call('POST', '/v1/simulator/reports', 'x', { headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(415);
  });
  it('413s a body over 1 MiB (the limit still applies to POST now that GET skips it)', async () => {
    const big = JSON.stringify({
      report_type: 'BACS_ARUDD',
      rows: Array.from({ length: 1100 }, () => ({ Note: 'x'.repeat(1000) })),
    });
    const res = await rt.call('POST', '/v1/simulator/reports', big);
    expect(res.status).toBe(413);
    assertMatchesSchema('error', await res.json());
  });
});

describe('GET /v1/notification/reports/{id}', () => {
  it('answers JSON to application/json, vnd.api+json, */* and no Accept', async () => {
    const { data } = await inject({ report_type: 'BACS_ARUDD' });
    for (const accept of [undefined, 'application/json', '*/*', 'application/vnd.api+json']) {
      const res = await get(`/v1/notification/reports/${data.id}`, accept);
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-type'), accept).toContain(
        accept === 'application/vnd.api+json' ? 'application/vnd.api+json' : 'application/json',
      );
      const json = await res.json();
      assertMatchesSchema('report-single', json);
      expect((json as any).data).toEqual(data);
    }
  });

  it('downloads each format by Accept, on the report path and on /content, as files ordinary parsers open', async () => {
    const { data } = await inject({ report_type: 'BACS_ARUDD', processing_date: '2026-12-18' });
    for (const path of [`/v1/notification/reports/${data.id}`, `/v1/notification/reports/${data.id}/content`]) {
      const pdf = await get(path, 'application/pdf');
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toBe('attachment; filename="bacs_arudd-2026-12-18.pdf"');
      const { text } = await pdfText(await bytesOf(pdf));
      for (const s of [
        'Automated Return of Unpaid Direct Debits',
        data.id,
        'BACS_ARUDD',
        'bacs-originator',
        'Northwind Bank plc',
        '2026-12-18',
        'Reference',
      ])
        expect(text, s).toContain(s);

      const xml = await get(path, 'application/xml');
      expect(xml.headers.get('content-type')).toBe('application/xml');
      const doc = parseXml(await xml.text());
      expect(doc.BACSDocument.Data.ARUDD.Header.ReportId).toBe(data.id);
      expect(doc.BACSDocument.Data.ARUDD.Records.Record.length).toBeGreaterThan(0);

      const zip = await get(path, 'application/xhtml+zip');
      expect(zip.headers.get('content-type')).toBe('application/xhtml+zip');
      const { doc: xhtml } = unzipXhtml(await bytesOf(zip));
      expect(xhtml.html.head.title).toBe('Automated Return of Unpaid Direct Debits');
    }
  });

  it('serves the same bytes every time, from the cache after the first render', async () => {
    const { data } = await inject({ report_type: 'FPS_SETTLEMENT' });
    const a = await bytesOf(await get(`/v1/notification/reports/${data.id}`, 'application/pdf'));
    const cached = rt.sim.reports.files.size;
    const b = await bytesOf(await get(`/v1/notification/reports/${data.id}/content`, 'application/pdf'));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(rt.sim.reports.files.size).toBe(cached);
  });

  it('renders the rows given on injection', async () => {
    const rows = [{ Reference: 'DDICABC123', SequenceNumber: '0000004711', Amount: '99.99' }];
    const { data } = await inject({ report_type: 'BACS_DDIC_CLAIM_SUBMISSION', rows });
    const { text } = await pdfText(await bytesOf(await get(`/v1/notification/reports/${data.id}`, 'application/pdf')));
    for (const s of ['DDICABC123', '0000004711', '99.99']) expect(text).toContain(s);
    const doc = parseXml(await (await get(`/v1/notification/reports/${data.id}`, 'application/xml')).text());
    expect(doc.BACSDocument.Data.DDICClaimSubmission.Records.Record).toEqual([rows[0]]);
  });

  it('renders the PDF of the largest injections accepted in bounded work: at most 10 columns, 1000 rows, 60 chars a cell; XML keeps all', async () => {
    // Under 1 MiB each: 500 rows × 40 keys (20,000 cells), and 10,000 rows × 2 keys with values cut in the PDF.
    const wide = Array.from({ length: 500 }, (_, r) =>
      Object.fromEntries(Array.from({ length: 40 }, (_, c) => [`Column${c}`, `R${r}C${c}:${'w'.repeat(20)}`])),
    );
    const long = Array.from({ length: 10_000 }, (_, r) => ({
      Ref: `REF${String(r).padStart(6, '0')}`,
      Note: 'n'.repeat(64),
    }));
    for (const rows of [wide, long]) {
      expect(JSON.stringify({ report_type: 'BACS_DDIC_CLAIM_SUBMISSION', rows }).length).toBeLessThan(1024 * 1024);
      const { data } = await inject({ report_type: 'BACS_DDIC_CLAIM_SUBMISSION', rows });
      const pdf = await bytesOf(await get(`/v1/notification/reports/${data.id}`, 'application/pdf'));
      const { text, pages } = await pdfText(pdf);
      // 1000 rows of 12 pt on an A4 landscape page: about 40 a page.
      expect(pages).toBeLessThanOrEqual(30);
      expect(pdf.byteLength).toBeLessThan(1_000_000);
      expect(text).toContain('The XML and XHTML formats hold everything.');
      expect(text).toContain(`Records: ${rows.length}`);
      if (rows === wide) {
        expect(text).toContain('This PDF shows the first 10 of 40 columns.');
        expect(text).toContain('Column9');
        expect(text).not.toContain('Column10');
        expect(text).toContain('R499C0');
      } else {
        expect(text).toContain('This PDF shows the first 1000 of 10000 records.');
        expect(text).toContain('REF000999');
        expect(text).not.toContain('REF001000');
        expect(text).toContain(`${'n'.repeat(59)}\u2026`);
        expect(text).not.toContain('n'.repeat(60));
        expect(text).toContain('Values over 60 characters are cut short.');
      }
      const xml = parseXml(await (await get(`/v1/notification/reports/${data.id}`, 'application/xml')).text());
      const records = xml.BACSDocument.Data.DDICClaimSubmission.Records.Record;
      expect(records).toHaveLength(rows.length);
      expect(records.at(-1)).toEqual(rows.at(-1));
    }
  });

  it('406s with an error body when nothing acceptable is offered', async () => {
    const { data } = await inject({ report_type: 'BACS_ARRIVAL' }); // pdf and xml only
    const cases: Array<[string, string]> = [
      [`/v1/notification/reports/${data.id}`, 'application/xhtml+zip'],
      [`/v1/notification/reports/${data.id}`, 'text/html'],
      [`/v1/notification/reports/${data.id}`, 'application/pdf;q=0'],
      [`/v1/notification/reports/${data.id}/content`, 'application/json'],
      [`/v1/notification/reports/${data.id}/content`, 'application/xhtml+zip'],
    ];
    for (const [path, accept] of cases) {
      const res = await get(path, accept);
      expect(res.status, `${path} ${accept}`).toBe(406);
      const json = (await res.json()) as any;
      assertMatchesSchema('error', json);
      expect(json.error_message).toContain('application/pdf, application/xml');
    }
    expect((await get(`/v1/notification/reports/${data.id}/content`)).headers.get('content-type')).toBe(
      'application/pdf',
    );
  });

  it('needs a token for downloads, hides other organisations’ reports, and 400s a bad id', async () => {
    const { data } = await inject({ report_type: 'BACS_ARUDD' });
    const anonymous = await rt.app.request(`/v1/notification/reports/${data.id}`, {
      headers: { accept: 'application/pdf' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('Bearer');
    const other = await get(`/v1/notification/reports/${data.id}`, 'application/pdf', HARBOUR);
    expect(other.status).toBe(404);
    expect(((await other.json()) as any).error_message).toBe(`record ${data.id} does not exist`);
    expect((await get('/v1/notification/reports/not-a-uuid')).status).toBe(400);
    expect((await rt.call('DELETE', `/v1/notification/reports/${data.id}`)).status).toBe(405);
  });
});

describe('GET /v1/notification/reports', () => {
  it('lists the organisation’s reports with filters and paging', async () => {
    await inject({ report_type: 'BACS_ARUDD', processing_date: '2026-12-10' });
    await inject({ report_type: 'BACS_ADDACS', processing_date: '2026-12-15' });
    await inject({ report_type: 'FPS_SETTLEMENT', processing_date: '2026-12-20' });
    await inject({ report_type: 'BACS_ARUDD', processing_date: '2026-12-20' }, HARBOUR);
    const list = async (query: string) => {
      const res = await get(`/v1/notification/reports${query}`);
      expect(res.status, query).toBe(200);
      const json = (await res.json()) as any;
      assertMatchesSchema('report-list', json);
      return json;
    };
    const types = async (query: string) => (await list(query)).data.map((r: any) => r.attributes.report_type);
    expect(await types('')).toEqual(['BACS_ARUDD', 'BACS_ADDACS', 'FPS_SETTLEMENT']);
    expect(await types('?filter[report_type]=BACS_ARUDD')).toEqual(['BACS_ARUDD']);
    expect(await types('?filter[report_source]=fps-direct-participant')).toEqual(['FPS_SETTLEMENT']);
    expect(await types('?filter[processing_date_from]=2026-12-15')).toEqual(['BACS_ADDACS', 'FPS_SETTLEMENT']);
    expect(await types('?filter[processing_date_to]=2026-12-15')).toEqual(['BACS_ARUDD', 'BACS_ADDACS']);
    expect(await types('?filter[processing_date_from]=2026-12-11&filter[processing_date_to]=2026-12-19')).toEqual([
      'BACS_ADDACS',
    ]);
    const page = await list('?page[size]=2&page[number]=1');
    expect(page.data).toHaveLength(1);
    expect(page.links.prev).toBe('/v1/notification/reports?page%5Bnumber%5D=0&page%5Bsize%5D=2');
    expect(page.links.next).toBeUndefined();
    expect((await get('/v1/notification/reports?filter[colour]=red')).status).toBe(400);
    const badDate = await get('/v1/notification/reports?filter[processing_date_from]=yesterday');
    expect(badDate.status).toBe(400);
    expect(((await badDate.json()) as any).error_message).toBe(
      'filter[processing_date_from] must be a date (YYYY-MM-DD)',
    );
  });
});

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
    rt.sim.events.on((e) =>
      events.push(
        `${e.record_type}:${(e.record.attributes as any).report_type ?? (e.record.relationships as any)?.report?.data[0]?.attributes.report_type}`,
      ),
    );
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
