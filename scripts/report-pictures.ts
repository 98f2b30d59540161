// The pictures and XML excerpts of docs/reports.md: three reports with fixed ids (so the same
// content every run), their PDFs' first pages rendered to PNG with pdftoppm (poppler-utils) and the
// head of their XML. `npx tsx scripts/report-pictures.ts` rewrites docs/images/report-*.png and
// prints the excerpts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BacsCalendar } from '../src/clock/calendar.ts';
import { readFixtures } from '../src/fixtures.ts';
import { renderPdf } from '../src/sim/reports/render-pdf.ts';
import { reportDocument } from '../src/sim/reports/report-content.ts';
import type { Report } from '../src/sim/reports/report-types.ts';
import { serviceUserOf } from '../src/sim/reports/service-users.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'images');
const fixtures = readFixtures();
const calendar = new BacsCalendar(fixtures.calendarOverrides, fixtures.holidayTable);
const northwind = fixtures.organisations[0]!;

const PICTURES: Array<{
  id: string;
  type: string;
  processing: string;
  generated: string;
  rows?: Array<Record<string, unknown>>;
}> = [
  {
    id: '0e9d3c1a-0000-4000-8000-00000000a001',
    type: 'BACS_ARUDD',
    processing: '2026-12-18',
    generated: '2026-12-22T06:00:00.000Z',
  },
  {
    id: '0e9d3c1a-0000-4000-8000-00000000a002',
    type: 'BACS_DDIC_CLAIM_SUBMISSION',
    processing: '2026-12-22',
    generated: '2026-12-22T08:00:00.000Z',
    // As the claims timeline gives them on D0+1 (src/sim/claims/claim-timeline.ts).
    rows: [
      {
        Reference: 'DDICNW00017',
        SequenceNumber: '000000000017',
        OriginatorSUN: '654321',
        SUReference: 'GYM-MEMBER-0042',
        ReasonCode: '1',
        Amount: '49.99',
        PayerName: 'Samantha Holder',
        PayerSortCode: '400300',
        PayerAccountNumber: '12345678',
        DisputedTransactions: [{ date: '2026-11-02', amount: '49.99' }],
        SettlementDate: '2027-01-12',
        ClaimId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        ClaimSubmissionId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
      },
      {
        Reference: 'DDICNW00018',
        SequenceNumber: '000000000018',
        OriginatorSUN: '654321',
        SUReference: 'GYM-MEMBER-0107',
        ReasonCode: '5',
        Amount: '1520.00',
        PayerName: 'John Smith & Jane Smith',
        PayerSortCode: '400300',
        PayerAccountNumber: '23456789',
        DisputedTransactions: [
          { date: '2026-10-01', amount: '760.00' },
          { date: '2026-11-02', amount: '760.00' },
        ],
        SettlementDate: '2027-01-12',
        ClaimId: '16fd2706-8baf-433b-82eb-8c7fada847da',
        ClaimSubmissionId: '886313e1-3b8a-4372-9b90-0c9aee199e5d',
      },
      {
        Reference: 'DDICNW00019',
        SequenceNumber: '000000000019',
        OriginatorSUN: '998877',
        SUReference: 'ENERGY 55120',
        ReasonCode: '8',
        Amount: '212.40',
        PayerName: 'Ellis Moreno',
        PayerSortCode: '400301',
        PayerAccountNumber: '34567890',
        DisputedTransactions: [{ date: '2026-11-16', amount: '212.40' }],
        SettlementDate: '2027-01-12',
        ClaimId: 'b1e8a0c4-2f3d-4e5a-8b6c-7d8e9f0a1b2c',
        ClaimSubmissionId: 'c2f9b1d5-3a4e-4f6b-9c7d-8e9fa0b1c2d3',
      },
    ],
  },
  {
    id: '0e9d3c1a-0000-4000-8000-00000000a003',
    type: 'FPS_SETTLEMENT',
    processing: '2026-12-21',
    generated: '2026-12-22T06:30:00.000Z',
  },
];

mkdirSync(OUT, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'report-pictures-'));
try {
  for (const p of PICTURES) {
    const entry = fixtures.reportCatalogue.find((e) => e.report_type === p.type)!;
    const report: Report = {
      id: p.id,
      type: 'reports',
      version: 0,
      organisation_id: northwind.id,
      created_on: p.generated,
      modified_on: p.generated,
      attributes: {
        report_type: entry.report_type,
        report_type_description: entry.report_type_description,
        generation_time: p.generated,
        processing_date: p.processing,
        report_source: entry.report_source,
        formats: entry.formats,
      },
    };
    const doc = await reportDocument(report, entry, {
      organisationName: northwind.name,
      serviceUser: serviceUserOf(northwind, fixtures.reportServiceUsers),
      calendar,
      ...(p.rows ? { rows: p.rows } : {}),
    });
    const pdf = join(work, `${p.type}.pdf`);
    writeFileSync(pdf, await renderPdf(doc.view(), p.generated));
    const png = join(OUT, `report-${p.type.toLowerCase().replaceAll('_', '-')}`);
    execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', '-singlefile', pdf, png]);
    console.log(`${png}.png\n--- ${p.type} XML (head) ---\n${doc.xml().split('\n').slice(0, 24).join('\n')}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
