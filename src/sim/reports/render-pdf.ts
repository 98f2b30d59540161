import type { Field, ReportContent } from './report-content.ts';

/** The standard PDF fonts carry WinAnsi only: anything outside Latin-1 prints as `?`. */
function latin1(s: string): string {
  return s.replace(/[^\x20-\x7E\xA0-\xFF]/gu, '?');
}

/** The PDF is a view for people: at most this many columns and rows, each cell at most this many chars. */
export const PDF_MAX_COLUMNS = 10;
export const PDF_MAX_ROWS = 1000;
export const PDF_CELL_CHARS = 60;

/** A cell as the PDF shows it: Latin-1, cut to PDF_CELL_CHARS with an ellipsis. */
export function pdfCell(value: string): string {
  const s = latin1(value);
  return s.length > PDF_CELL_CHARS ? `${s.slice(0, PDF_CELL_CHARS - 1)}\u2026` : s;
}

const ROW_HEIGHT = 12;
const PAD = 2;

/**
 * The rows as a table drawn cell by cell, one line per cell (clipped with an ellipsis to the column
 * width), the header row repeated on every page. At most PDF_MAX_COLUMNS × PDF_MAX_ROWS cells of
 * PDF_CELL_CHARS: the work is bounded whatever the report holds. A note says what was left out.
 */
function table(doc: PDFKit.PDFDocument, content: ReportContent): void {
  const columns = content.columns.slice(0, PDF_MAX_COLUMNS);
  const rows = content.rows.slice(0, PDF_MAX_ROWS);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const colWidth = width / columns.length;
  let y = doc.y;
  let cut = false;
  const line = (cells: string[]) => {
    cells.forEach((cell, i) => {
      doc.text(cell, left + i * colWidth + PAD, y + 3, {
        width: colWidth - 2 * PAD,
        height: ROW_HEIGHT - 3,
        ellipsis: true,
      });
    });
    doc
      .moveTo(left, y + ROW_HEIGHT)
      .lineTo(left + width, y + ROW_HEIGHT)
      .lineWidth(0.3)
      .strokeColor('#bbbbbb')
      .stroke();
    y += ROW_HEIGHT;
  };
  const header = () => {
    doc.rect(left, y, width, ROW_HEIGHT).fill('#dddddd');
    doc.fillColor('black').font('Helvetica-Bold');
    line(columns.map((c) => pdfCell(c.label)));
    doc.font('Helvetica');
  };
  doc.fontSize(8);
  header();
  for (const r of rows) {
    if (y + ROW_HEIGHT > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
      header();
    }
    line(
      columns.map((c) => {
        const v = r[c.key] ?? '';
        if (v.length > PDF_CELL_CHARS) cut = true;
        return pdfCell(v);
      }),
    );
  }
  doc.x = left;
  doc.y = y + 4;
  const leftOut: string[] = [];
  if (content.columns.length > columns.length)
    leftOut.push(`the first ${columns.length} of ${content.columns.length} columns`);
  if (content.rows.length > rows.length) leftOut.push(`the first ${rows.length} of ${content.rows.length} records`);
  if (leftOut.length > 0 || cut) {
    const parts = [
      ...(leftOut.length > 0 ? [`This PDF shows ${leftOut.join(' and ')}.`] : []),
      ...(cut ? [`Values over ${PDF_CELL_CHARS} characters are cut short.`] : []),
      'The XML and XHTML formats hold everything.',
    ];
    doc.font('Helvetica-Oblique').text(parts.join(' '), left, doc.y, { width }).font('Helvetica');
  }
}

function fieldLines(doc: PDFKit.PDFDocument, fields: Field[]): void {
  for (const f of fields) {
    doc
      .font('Helvetica-Bold')
      .text(`${latin1(f.label)}: `, { continued: true })
      .font('Helvetica')
      .text(latin1(f.value || '-'));
  }
}

/**
 * A real PDF (A4 landscape, standard fonts): the title, the header fields, the rows in a table
 * (bounded: see `table`) and the totals, which count every row. CreationDate and ModDate are the report's generation time and the file ID derives from
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
      info: {
        Title: latin1(content.title),
        Author: 'scheme-sim',
        Subject: latin1(content.element),
        Producer: 'scheme-sim',
        Creator: 'scheme-sim',
        CreationDate: at,
        ModDate: at,
      },
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
        table(doc, content);
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
