// What a person reads: the PDF (as unpdf extracts its text) and the XHTML of every report type show
// the header block (service user number and name, report number, processing date, originating
// account) and the totals, which agree with the XML of the same report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, unzipXhtml, xpathValues } from '../../../features/support/report-files.ts';
import { SchemeClock } from '../../clock/scheme-clock.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { count, money, sum } from './report-view.ts';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await testRuntime({ clockState: SchemeClock.frozenAt('2026-12-22T09:00:00.000Z') });
});
afterAll(() => rt.close());

type Q = (expr: string) => string[];
const one = (q: Q, expr: string) => q(expr)[0]!;

/** The totals each report type must print, read from its XML. */
const TOTALS: Record<string, (q: Q) => string[]> = {
  BACS_ARUDD: (q) => ['Debits returned', count(q('//ReturnedDebitItem').length), money(sum(q('//Totals/@valueOf')))],
  BACS_ARUCS: (q) => ['Credits returned', count(q('//ReturnedCreditItem').length), money(sum(q('//Totals/@valueOf')))],
  BACS_ADDACS: (q) => ['Advices', one(q, 'count(//MessagingAdvice)')],
  BACS_AUDDIS: (q) => ['Advices', one(q, 'count(//MessagingAdvice)')],
  BACS_AUDDIS_ACCEPTANCE: (q) => ['Advices', one(q, 'count(//MessagingAdvice)')],
  BACS_AUDDIS_REJECTION: (q) => ['File error', one(q, '//MessagingError/@line1')],
  BACS_AWACS: (q) => ['Advices', one(q, 'count(//MessagingAdvice)')],
  BACS_INPUT: (q) => ['Debits accepted', money(sum(q('//AccountTotal/DebitEntry/AcceptedRecords/@valueOf')))],
  BACS_ARRIVAL: (q) => ['User files', money(sum(q('//DaySection/Totals/Debit/@valueOf')))],
  BACS_WITHDRAWAL: (q) => ['User files', money(sum(q('//DaySection/Totals/Debit/@valueOf')))],
  BACS_DDIC_ADVICE: (q) => ['Total value of debits', money(one(q, '//TotalValueOfDebits')), one(q, '//DateOfDebit')],
  BACS_DDIC_CLAIM_SUBMISSION: (q) => ['Claims submitted', money(one(q, '//TotalValueOfClaims'))],
  FPS_SETTLEMENT: (q) => ['Net position', money(one(q, '//DailyTotals/NetPosition/@valueOf'))],
  FPS_SPONSORED_PARTICIPANT: (q) => ['Net position', money(one(q, '//SponsorTotals/NetPosition/@valueOf'))],
  FPS_TRANSACTION_SUMMARY: (q) => ['Net position', money(one(q, '//Totals/NetPosition/@valueOf'))],
  FPS_REJECTED_PAYMENTS: (q) => ['Payments rejected', money(one(q, '//Totals/@valueOf'))],
};

describe('the PDF and XHTML of every report type', () => {
  it('covers every type of the catalogue', () => {
    expect(Object.keys(TOTALS).sort()).toEqual(rt.sim.reports.catalogue.types.sort());
  });

  it('show the Bacs header block and the totals the XML holds', async () => {
    for (const entry of rt.sim.reports.catalogue.entries) {
      const client = entry.audience === 'sponsors' ? NORTHWIND : HARBOUR;
      const { report } = rt.sim.reports.inject({
        organisation_id: client.organisation_id,
        report_type: entry.report_type,
        processing_date: '2026-12-21',
        ...(entry.report_type === 'BACS_DDIC_CLAIM_SUBMISSION'
          ? { rows: [{ Reference: 'DDICPDF001', SequenceNumber: '000000000777', Amount: '1234.5' }] }
          : {}),
      });
      const file = async (f: 'pdf' | 'xml' | 'zipped_xhtml') =>
        (await rt.sim.reports.file(report.id, client.organisation_id, f)).bytes;
      const xml = new TextDecoder().decode(await file('xml'));
      const q: Q = (expr) => xpathValues(xml, expr);
      const { text } = await pdfText(await file('pdf'));
      const header = entry.report_source.startsWith('fps')
        ? ['Participant', `sort code ${client === HARBOUR ? '30-96-34' : '40-03-00'}`, 'Settlement date', '2026-12-21']
        : [
            'Service user number',
            '309021',
            'Service user name',
            'HARBOUR BS',
            'Processing date',
            '2026-12-21',
            'Originating account',
            '30-96-34 20776611 HARBOUR MORTGAGES',
          ];
      const expected = [
        entry.report_type_description,
        report.id,
        ...header,
        'Report totals',
        ...TOTALS[entry.report_type]!(q),
      ];
      for (const s of expected) expect(text, `${entry.report_type} PDF: ${s}`).toContain(s);
      if (entry.formats.includes('zipped_xhtml')) {
        const { xhtml } = unzipXhtml(await file('zipped_xhtml'));
        for (const s of expected)
          expect(xhtml, `${entry.report_type} XHTML: ${s}`).toContain(s.replace(/'/g, '&apos;'));
      }
    }
  });

  it('print every amount with thousands separators and the currency, and sort codes as 12-34-56', async () => {
    const { report } = rt.sim.reports.inject({
      organisation_id: HARBOUR.organisation_id,
      report_type: 'BACS_ARUDD',
      rows: [{ Reference: 'BIGONE', PayerSortCode: '123456', Amount: '1234567.8' }],
    });
    const { text } = await pdfText((await rt.sim.reports.file(report.id, HARBOUR.organisation_id, 'pdf')).bytes);
    expect(text).toContain('GBP 1,234,567.80');
    expect(text).toContain('12-34-56');
    expect(text).not.toContain('1234567.80');
    expect(text).toContain('Total for this account');
  });
});
