import { describe, expect, it } from 'vitest';
import { parseXml, pdfText, unzipXhtml } from '../../../features/support/report-files.ts';
import { renderPdf } from './render-pdf.ts';
import { renderZippedXhtml } from './render-xhtml.ts';
import { renderXml } from './render-xml.ts';
import type { ReportContent } from './report-content.ts';

const hostile = 'O\'Brien & Sons <script>"x"</script> ]]> \u0001 Zoë 😀';
const content: ReportContent = {
  title: 'Automated Return of Unpaid Direct Debits',
  element: 'ARUDD',
  header: [
    { name: 'ReportId', label: 'Report id', value: '9b8e1c52-3f0a-4d8b-9a57-1c2d3e4f5a6b' },
    { name: 'ReportType', label: 'Report type', value: 'BACS_ARUDD' },
    { name: 'ProcessingDate', label: 'Processing date', value: '2026-12-18' },
  ],
  columns: [
    { key: 'Reference', label: 'Reference' },
    { key: 'Payer Name', label: 'Payer' },
    { key: '1st amount', label: 'Amount' },
    { key: 'xmlish', label: 'X' },
  ],
  rows: [
    { Reference: 'REF000001', 'Payer Name': hostile, '1st amount': '10.00', xmlish: '<a/>' },
    { Reference: 'REF000002', 'Payer Name': 'SMITH J', '1st amount': '2.50', xmlish: '' },
  ],
  totals: [{ name: 'RecordCount', label: 'Records', value: '2' }],
};
const at = '2026-12-21T06:00:00.000Z';

describe('renderXml', () => {
  it('is well-formed BACSDocument/Data/<Report> with escaped values and valid element names', () => {
    const doc = parseXml(new TextDecoder().decode(renderXml(content)));
    const report = doc.BACSDocument.Data.ARUDD;
    expect(report.Header.ReportType).toBe('BACS_ARUDD');
    expect(report.Header.Title).toBe(content.title);
    expect(report.Records.Record).toHaveLength(2);
    expect(report.Records.Record[0].Payer_Name).toContain('O\'Brien & Sons <script>"x"</script> ]]>');
    expect(report.Records.Record[1]._1st_amount).toBe('2.50');
    expect(report.Totals.RecordCount).toBe('2');
  });
});

describe('renderZippedXhtml', () => {
  it('is a zip holding one well-formed report.xhtml with the header and the rows', () => {
    const { entries, xhtml, doc } = unzipXhtml(renderZippedXhtml(content, at));
    expect(entries).toEqual(['report.xhtml']);
    expect(doc.html['@_xmlns']).toBe('http://www.w3.org/1999/xhtml');
    expect(doc.html.head.title).toBe(content.title);
    expect(doc.html.body.table.tbody.tr).toHaveLength(2);
    expect(xhtml).toContain('O&apos;Brien &amp; Sons &lt;script&gt;');
    expect(xhtml).not.toContain('\u0001');
    expect(xhtml).toContain('9b8e1c52-3f0a-4d8b-9a57-1c2d3e4f5a6b');
  });

  it('gives the same bytes for the same content', () => {
    expect(Buffer.from(renderZippedXhtml(content, at)).equals(Buffer.from(renderZippedXhtml(content, at)))).toBe(true);
  });
});

describe('renderPdf', () => {
  it('is a real PDF whose text holds the title, the header fields and the rows', async () => {
    const bytes = await renderPdf(content, at);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const { text, pages } = await pdfText(bytes);
    expect(pages).toBe(1);
    for (const s of [
      content.title,
      'Report id',
      '9b8e1c52-3f0a-4d8b-9a57-1c2d3e4f5a6b',
      'BACS_ARUDD',
      '2026-12-18',
      'REF000001',
      'REF000002',
      'SMITH J',
      '2.50',
      'Records',
    ]) {
      expect(text, s).toContain(s);
    }
    expect(text).toContain("O'Brien & Sons");
  });

  it('gives the same bytes for the same content (fixed dates and file ID)', async () => {
    const a = await renderPdf(content, at);
    const b = await renderPdf(content, at);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(Buffer.from(await renderPdf(content, '2026-12-22T06:00:00.000Z')).equals(Buffer.from(a))).toBe(false);
  });

  it('runs over several pages for many rows', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({
      Reference: `REF${String(i).padStart(6, '0')}`,
      'Payer Name': 'JONES A',
      '1st amount': '1.00',
      xmlish: '',
    }));
    const { text, pages } = await pdfText(await renderPdf({ ...content, rows }, at));
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain('REF000299');
  });
});
