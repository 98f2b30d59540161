import { describe, expect, it } from 'vitest';
import { pdfText, unzipXhtml } from '../../../features/support/report-files.ts';
import { PDF_CELL_CHARS, PDF_MAX_ROWS, renderPdf } from './render-pdf.ts';
import { renderZippedXhtml } from './render-xhtml.ts';
import { dashedSortCode, money, type ReportView, sum, thousands } from './report-view.ts';

const hostile = 'O\'Brien & Sons <script>"x"</script> ]]> \u0001 Zoë 😀';
const view: ReportView = {
  title: 'Automated Return of Unpaid Direct Debits',
  subtitle: 'ARUDD advice 042',
  header: [
    { name: 'ServiceUserNumber', label: 'Service user number', value: '309021' },
    { name: 'ServiceUserName', label: 'Service user name', value: 'HARBOUR BS' },
    { name: 'ReportId', label: 'Report id', value: '9b8e1c52-3f0a-4d8b-9a57-1c2d3e4f5a6b' },
  ],
  sections: [
    {
      heading: 'Originating account 30-96-34 20776611 HARBOUR MORTGAGES',
      fields: [{ name: 'Bank', label: 'Bank', value: 'HARBOUR BUILDING SOCIETY, BRISTOL' }],
      columns: [{ label: 'Reference' }, { label: 'Payer' }, { label: 'Amount', align: 'right' }],
      rows: [
        ['REF000001', hostile, 'GBP 10.00'],
        ['REF000002', 'SMITH J', 'GBP 1,002.50'],
      ],
      totals: [{ name: 'AccountTotal', label: 'Total for this account', value: 'GBP 1,012.50' }],
    },
  ],
  totals: [{ name: 'TotalValue', label: 'Total value', value: 'GBP 1,012.50' }],
  notes: [],
};
const at = '2026-12-21T06:00:00.000Z';

describe('view formatting', () => {
  it('writes sort codes 12-34-56, amounts with separators and the currency, and sums exactly', () => {
    expect(dashedSortCode('309634')).toBe('30-96-34');
    expect(thousands('1234567.5')).toBe('1,234,567.50');
    expect(thousands('-1000.00')).toBe('-1,000.00');
    expect(money('999.99')).toBe('GBP 999.99');
    expect(sum(['0.10', '0.20', '1000000.05', '-0.05'])).toBe('1000000.30');
  });
});

describe('renderZippedXhtml', () => {
  it('is a zip holding one well-formed report.xhtml: header block, sections, totals, all escaped', () => {
    const { entries, xhtml, doc } = unzipXhtml(renderZippedXhtml(view, at));
    expect(entries).toEqual(['report.xhtml']);
    expect(doc.html['@_xmlns']).toBe('http://www.w3.org/1999/xhtml');
    expect(doc.html.head.title).toBe(view.title);
    expect(xhtml).toContain('<dt>Service user number</dt><dd class="ServiceUserNumber">309021</dd>');
    expect(xhtml).toContain('<h2>Originating account 30-96-34 20776611 HARBOUR MORTGAGES</h2>');
    expect(xhtml).toContain('<td class="right">GBP 1,002.50</td>');
    expect(xhtml).toContain('<dd class="AccountTotal">GBP 1,012.50</dd>');
    expect(xhtml).toContain('O&apos;Brien &amp; Sons &lt;script&gt;');
    expect(xhtml).not.toContain('\u0001');
  });

  it('gives the same bytes for the same view', () => {
    expect(Buffer.from(renderZippedXhtml(view, at)).equals(Buffer.from(renderZippedXhtml(view, at)))).toBe(true);
  });
});

describe('renderPdf', () => {
  it('is a real PDF whose text holds the title, the header block, the rows and the totals', async () => {
    const bytes = await renderPdf(view, at);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const { text, pages } = await pdfText(bytes);
    expect(pages).toBe(1);
    for (const s of [
      view.title,
      'Service user number',
      '309021',
      '9b8e1c52-3f0a-4d8b-9a57-1c2d3e4f5a6b',
      'Originating account 30-96-34 20776611 HARBOUR MORTGAGES',
      'REF000001',
      'GBP 1,002.50',
      'Total for this account',
      'Report totals',
      'page 1 of 1',
    ]) {
      expect(text, s).toContain(s);
    }
    expect(text).toContain("O'Brien & Sons");
  });

  it('gives the same bytes for the same view (fixed dates and file ID)', async () => {
    const a = await renderPdf(view, at);
    expect(Buffer.from(await renderPdf(view, at)).equals(Buffer.from(a))).toBe(true);
    expect(Buffer.from(await renderPdf(view, '2026-12-22T06:00:00.000Z')).equals(Buffer.from(a))).toBe(false);
  });

  it('runs over pages with the table head repeated, shows at most PDF_MAX_ROWS rows and says so', async () => {
    const rows = Array.from({ length: PDF_MAX_ROWS + 5 }, (_, i) => [
      `REF${String(i).padStart(6, '0')}`,
      'JONES A',
      'GBP 1.00',
    ]);
    const long = 'x'.repeat(PDF_CELL_CHARS + 10);
    const many = { ...view, sections: [{ ...view.sections[0]!, rows: [[long, 'A', 'GBP 1.00'], ...rows] }] };
    const { text, pages } = await pdfText(await renderPdf(many, at));
    expect(pages).toBeGreaterThan(10);
    expect(text).toContain(`REF${String(PDF_MAX_ROWS - 2).padStart(6, '0')}`);
    expect(text).not.toContain(`REF${String(PDF_MAX_ROWS + 4).padStart(6, '0')}`);
    expect(text).toContain(`This PDF shows the first ${PDF_MAX_ROWS} records; 6 more are in the XML and XHTML files.`);
    expect(text).toContain(`Values over ${PDF_CELL_CHARS} characters are cut short`);
    expect(text.match(/Reference/g)!.length).toBe(pages);
  });
});
