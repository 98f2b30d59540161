import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseXml, pdfText, unzipXhtml, xpathValues } from '../../../features/support/report-files.ts';
import { assertMatchesSchema } from '../../../features/support/schema.ts';
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
        { report_type: 'BACS_ARUDD', rows: [{ Reference: 'A1' }, { Colour: 'red' }] },
        400,
        'rows.1.Colour in body is not a field of BACS_ARUDD rows; fields: Reference, PayerName, PayerSortCode',
      ],
      [
        { report_type: 'BACS_ARUDD', rows: [{ PayerSortCode: '12345' }] },
        400,
        "rows.0.PayerSortCode in body should match '^\\d{2}-?\\d{2}-?\\d{2}$'",
      ],
      [
        { report_type: 'BACS_ARUDD', rows: [{ ReasonCode: 'Z' }] },
        400,
        'rows.0.ReasonCode in body should be one of [0 1 2 3 4 5 6 7 8 9 A B]',
      ],
      [
        { report_type: 'BACS_ARUDD', rows: [{ Amount: '1.001' }] },
        400,
        'rows.0.Amount in body should be a positive amount with at most 2 decimal places',
      ],
      [{ report_type: 'BACS_INPUT', rows: [] }, 400, 'rows in body should have at least 1 items for BACS_INPUT'],
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
        'Service user number',
        '412785',
        'NORTHWIND BANK PLC',
        'Advice number',
        '2026-12-18',
        '40-03-00 90112233 NORTHWIND COLLECT',
        'Reference',
      ])
        expect(text, s).toContain(s);

      const xml = await get(path, 'application/xml');
      expect(xml.headers.get('content-type')).toBe('application/xml');
      const text2 = await xml.text();
      const doc = parseXml(text2);
      expect(doc.BACSDocument.Data.ARUDD.Header['@_currentProcessingDate']).toBe('2026-12-18');
      expect(xpathValues(text2, 'count(//ReturnedDebitItem)').map(Number)[0]).toBeGreaterThan(0);

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
    const rows = [{ Reference: 'DDICABC123', SequenceNumber: '000000004711', Amount: '99.99' }];
    const { data } = await inject({ report_type: 'BACS_DDIC_CLAIM_SUBMISSION', rows });
    const { text } = await pdfText(await bytesOf(await get(`/v1/notification/reports/${data.id}`, 'application/pdf')));
    for (const s of ['DDICABC123', '000000004711', 'GBP 99.99']) expect(text).toContain(s);
    const xml = await (await get(`/v1/notification/reports/${data.id}`, 'application/xml')).text();
    expect(xpathValues(xml, '//DDICClaim/PayingBankReference')).toEqual(['DDICABC123']);
    expect(xpathValues(xml, '//DDICClaim/SeqNo')).toEqual(['000000004711']);
    expect(xpathValues(xml, '//DDICClaim/TotalAmount')).toEqual(['99.99']);
  });

  it('renders the PDF of the largest injection accepted in bounded work (1,000 rows); the XML keeps every row', async () => {
    // At the cell limit and under 1 MiB: 10,000 returned debits of two fields each.
    const rows = Array.from({ length: 10_000 }, (_, r) => ({
      Reference: `REF${String(r).padStart(6, '0')}`,
      Amount: '1.00',
    }));
    expect(JSON.stringify({ report_type: 'BACS_ARUDD', rows }).length).toBeLessThan(1024 * 1024);
    const { data } = await inject({ report_type: 'BACS_ARUDD', rows }, HARBOUR);
    const pdf = await bytesOf(await get(`/v1/notification/reports/${data.id}`, 'application/pdf', HARBOUR));
    const { text, pages } = await pdfText(pdf);
    expect(pages).toBeLessThanOrEqual(40);
    expect(pdf.byteLength).toBeLessThan(1_000_000);
    expect(text).toContain('This PDF shows the first 1000 records; 9000 more are in the XML and XHTML files.');
    expect(text).toContain('REF000999');
    expect(text).not.toContain('REF001000');
    // Totals count every row, shown or not.
    expect(text).toContain('GBP 10,000.00');
    const xml = await (await get(`/v1/notification/reports/${data.id}`, 'application/xml', HARBOUR)).text();
    expect(xpathValues(xml, 'count(//ReturnedDebitItem)')).toEqual(['10000']);
    expect(xpathValues(xml, '//OriginatingAccountRecord/Totals/@valueOf')).toEqual(['10000.00']);
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
      'filter[processing_date_from] must be a date (YYYY-MM-DD) or a date-time (RFC 3339): "yesterday"',
    );
  });
});
