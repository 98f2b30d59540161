// Every report type of the catalogue, in every format it offers: the XML validates against the
// type's schema in fixtures/reports/xsd (with xmllint), the PDF is a PDF and the zip holds XHTML,
// whether the content was drawn or a client gave every field of its rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, unzipXhtml } from '../../../features/support/report-files.ts';
import { xsdOf, xsdProblems } from '../../../features/support/report-xsd.ts';
import { SchemeClock } from '../../clock/scheme-clock.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { kindOf } from './report-content.ts';
import type { FieldSpec } from './report-items.ts';

let rt: TestRuntime;
// Tuesday 22 December 2026: the FPS reports of the day before (a Monday) have settlement cycles.
beforeAll(async () => {
  rt = await testRuntime({ clockState: SchemeClock.frozenAt('2026-12-22T09:00:00.000Z') });
});
afterAll(() => rt.close());

/** A value each field accepts: the first of these its rule reads. */
const CANDIDATES = [
  '123456',
  '12345678',
  '1234.5',
  '2026-12-14',
  '3',
  'B',
  '001',
  '30264',
  '123456789012',
  'DDICTEST01',
  '17',
  '99',
  '0N',
  'Y',
  'OUTBOUND',
  'SIP',
  '00000002',
  "O'Brien-Smith & Co",
];
function sampleRow(fields: readonly FieldSpec[]): Record<string, string> {
  return Object.fromEntries(
    fields.map((f) => {
      const value = CANDIDATES.find((c) => f.read(c) !== undefined);
      if (value === undefined) throw new Error(`no sample value for ${f.key} (${f.rule})`);
      return [f.key, value];
    }),
  );
}

async function files(reportId: string, organisationId: string, formats: readonly string[]) {
  const out: Record<string, Uint8Array> = {};
  for (const format of formats) {
    out[format] = (await rt.sim.reports.file(reportId, organisationId, format as 'pdf')).bytes;
  }
  return out;
}

async function checkFiles(reportType: string, got: Record<string, Uint8Array>) {
  const xml = new TextDecoder().decode(got.xml!);
  expect(xsdProblems(xml, reportType), `${reportType} XML against its XSD`).toBeUndefined();
  if (got.pdf) {
    expect(new TextDecoder().decode(got.pdf.slice(0, 5))).toBe('%PDF-');
    expect((await pdfText(got.pdf)).text).toContain('Report totals');
  }
  if (got.zipped_xhtml) expect(unzipXhtml(got.zipped_xhtml).doc.html.body.h1).toBeTruthy();
}

describe('every report type of the catalogue', () => {
  it('offers XML for each type, and each type has its schema', () => {
    for (const e of rt.sim.reports.catalogue.entries) {
      expect(e.formats, e.report_type).toContain('xml');
      expect(() => xsdOf(e.report_type)).not.toThrow();
    }
  });

  for (const [name, organisation] of [
    ['two originating accounts', NORTHWIND],
    ['one originating account', HARBOUR],
  ] as const) {
    it(`downloads in each offered format, the XML valid against its XSD (drawn content, ${name})`, async () => {
      for (const entry of rt.sim.reports.catalogue.entries) {
        if (entry.audience === 'sponsors' && organisation === HARBOUR) continue;
        const { report } = rt.sim.reports.arrive({
          organisation_id: organisation.organisation_id,
          report_type: entry.report_type,
        });
        await checkFiles(entry.report_type, await files(report.id, organisation.organisation_id, entry.formats));
      }
    });
  }

  it('stays valid when a client gives every field of its rows', async () => {
    for (const entry of rt.sim.reports.catalogue.entries) {
      const row = sampleRow(kindOf(entry).fields);
      const { report } = rt.sim.reports.inject({
        organisation_id: NORTHWIND.organisation_id,
        report_type: entry.report_type,
        rows: [row, row],
      });
      await checkFiles(entry.report_type, await files(report.id, NORTHWIND.organisation_id, entry.formats));
    }
  });

  it('stays valid on a day without FPS settlement and with as few rows as a type allows', async () => {
    for (const entry of rt.sim.reports.catalogue.entries) {
      const kind = kindOf(entry);
      const { report } = rt.sim.reports.inject({
        organisation_id: NORTHWIND.organisation_id,
        report_type: entry.report_type,
        processing_date: '2026-12-26',
        rows: kind.minRows ? [sampleRow(kind.fields)] : [],
      });
      await checkFiles(entry.report_type, await files(report.id, NORTHWIND.organisation_id, entry.formats));
    }
  });
});

describe('the schemas', () => {
  it('refuse a file that breaks them, so the validation above can fail', async () => {
    const { report } = rt.sim.reports.arrive({ organisation_id: HARBOUR.organisation_id, report_type: 'BACS_ARUDD' });
    const xml = new TextDecoder().decode((await rt.sim.reports.file(report.id, HARBOUR.organisation_id, 'xml')).bytes);
    expect(xsdProblems(xml, 'BACS_ARUDD')).toBeUndefined();
    expect(xsdProblems(xml.replace(/returnCode="[^"]*"/, 'returnCode="XYZ"'), 'BACS_ARUDD')).toMatch(/returnCode/);
    expect(xsdProblems(xml.replace(/valueOf="(\d+)\.(\d\d)"/, 'valueOf="$1"'), 'BACS_ARUDD')).toMatch(/valueOf/);
    expect(xsdProblems(xml.replace('<ARUDD>', '<ARUCS>').replace('</ARUDD>', '</ARUCS>'), 'BACS_ARUDD')).toMatch(
      /ARUCS/,
    );
  });
});
