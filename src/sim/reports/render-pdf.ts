import type { Field, ReportContent } from './report-content.ts';

/** The standard PDF fonts carry WinAnsi only: anything outside Latin-1 prints as `?`. */
function latin1(s: string): string {
  return s.replace(/[^\x20-\x7E\xA0-\xFF]/gu, '?');
}

function fieldLines(doc: PDFKit.PDFDocument, fields: Field[]): void {
  for (const f of fields) {
    doc.font('Helvetica-Bold').text(`${latin1(f.label)}: `, { continued: true }).font('Helvetica').text(latin1(f.value || '-'));
  }
}

/**
 * A real PDF (A4 landscape, standard fonts): the title, the header fields, the rows in a table and
 * the totals. CreationDate and ModDate are the report's generation time and the file ID derives from
 * them, so the same report always renders to the same bytes.
 */
export async function renderPdf(content: ReportContent, generationTime: string): Promise<Uint8Array> {
  // Imported on first render: loading pdfkit costs start-up about half a second.
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const at = new Date(generationTime);
    const doc = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: 36,
      compress: true,
      info: { Title: latin1(content.title), Author: 'scheme-sim', Subject: latin1(content.element), Producer: 'scheme-sim', Creator: 'scheme-sim', CreationDate: at, ModDate: at },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('error', reject);
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    try {
      doc.font('Helvetica-Bold').fontSize(16).text(latin1(content.title));
      doc.moveDown(0.5).fontSize(9);
      fieldLines(doc, content.header);
      doc.moveDown(0.8);
      if (content.columns.length > 0) {
        const data = [content.columns.map((c) => latin1(c.label)), ...content.rows.map((r) => content.columns.map((c) => latin1(r[c.key] ?? '')))];
        doc.fontSize(8).font('Helvetica');
        doc.table({ data, rowStyles: (i: number) => (i === 0 ? { font: { src: 'Helvetica-Bold' }, backgroundColor: '#dddddd' } : undefined) } as never);
      } else {
        doc.font('Helvetica-Oblique').text('No records.');
      }
      doc.moveDown(0.8).fontSize(9);
      fieldLines(doc, content.totals);
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}
