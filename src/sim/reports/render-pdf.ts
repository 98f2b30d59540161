// A report's PDF is for people to read: a real, paged PDF drawn from the report's view, the same
// bytes every time for the same report.
import type { ReportView, ViewColumn, ViewField, ViewSection } from './report-view.ts';

/** The standard PDF fonts carry WinAnsi only: anything outside Latin-1 prints as `?`. */
function latin1(s: string): string {
  return s.replace(/[^\x20-\x7E\xA0-\xFF]/gu, '?');
}

/** The PDF is a view for people: at most this many rows in all, each cell at most this many chars. */
export const PDF_MAX_ROWS = 1000;
export const PDF_CELL_CHARS = 120;

/** A cell as the PDF shows it: Latin-1, cut to PDF_CELL_CHARS with an ellipsis. */
export function pdfCell(value: string): string {
  const s = latin1(value);
  return s.length > PDF_CELL_CHARS ? `${s.slice(0, PDF_CELL_CHARS - 1)}\u2026` : s;
}

type Doc = PDFKit.PDFDocument;
const PAD = 3;
const TABLE_SIZE = 8;
/** A cell wraps onto at most this many lines. */
const MAX_LINES = 3;

const left = (doc: Doc) => doc.page.margins.left;
const usable = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const bottom = (doc: Doc) => doc.page.height - doc.page.margins.bottom;

/** Starts a new page when fewer than `h` points are left. */
function room(doc: Doc, h: number): void {
  if (doc.y + h > bottom(doc)) doc.addPage();
}

/**
 * Column widths that fit the page: each column gets what its widest cell needs while that fits;
 * when it does not, the widest columns give way (their cells wrap), so no column is starved.
 */
function widths(doc: Doc, columns: ViewColumn[], rows: string[][], total: number): number[] {
  doc.font('Helvetica').fontSize(TABLE_SIZE);
  const need = columns.map((c, i) => {
    doc.font('Helvetica-Bold');
    let w = doc.widthOfString(c.label);
    doc.font('Helvetica');
    for (const r of rows) w = Math.max(w, doc.widthOfString(r[i] ?? ''));
    return w + 2 * PAD + 1;
  });
  const sumNeed = need.reduce((a, b) => a + b, 0);
  if (sumNeed <= total) {
    const extra = (total - sumNeed) / columns.length;
    return need.map((w) => w + extra);
  }
  // Water-filling: find the cap such that Σ min(need, cap) = total.
  const sorted = [...need].sort((a, b) => a - b);
  let rest = total;
  let cap = total / columns.length;
  for (let i = 0; i < sorted.length; i++) {
    const share = rest / (sorted.length - i);
    if (sorted[i]! > share) {
      cap = share;
      break;
    }
    rest -= sorted[i]!;
    cap = share;
  }
  return need.map((w) => Math.min(w, cap));
}

function rowHeight(doc: Doc, cells: string[], ws: number[], bold: boolean): number {
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(TABLE_SIZE);
  const lineHeight = doc.currentLineHeight(true);
  const tallest = Math.max(
    ...cells.map((c, i) => Math.min(doc.heightOfString(c, { width: ws[i]! - 2 * PAD }), lineHeight * MAX_LINES)),
    lineHeight,
  );
  return tallest + 2 * PAD;
}

function drawRow(doc: Doc, cells: string[], ws: number[], columns: ViewColumn[], y: number, h: number, bold: boolean) {
  let x = left(doc);
  doc
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(TABLE_SIZE)
    .fillColor('black');
  cells.forEach((c, i) => {
    doc.text(c, x + PAD, y + PAD, {
      width: ws[i]! - 2 * PAD,
      height: h - 2 * PAD,
      ellipsis: true,
      align: columns[i]?.align === 'right' ? 'right' : 'left',
      lineBreak: true,
    });
    x += ws[i]!;
  });
  doc
    .moveTo(left(doc), y + h)
    .lineTo(left(doc) + usable(doc), y + h)
    .lineWidth(0.3)
    .strokeColor('#bbbbbb')
    .stroke();
}

/** A section's table, its header row repeated on each page. Returns whether any value was cut. */
function table(doc: Doc, section: ViewSection, rows: string[][]): boolean {
  const cut = rows.some((r) => r.some((c) => latin1(c).length > PDF_CELL_CHARS));
  const cells = rows.map((r) => r.map(pdfCell));
  const labels = section.columns.map((c) => latin1(c.label));
  const ws = widths(doc, section.columns, cells, usable(doc));
  const head = () => {
    const h = rowHeight(doc, labels, ws, true);
    room(doc, h * 2);
    const y = doc.y;
    doc.rect(left(doc), y, usable(doc), h).fill('#dde3ea');
    drawRow(doc, labels, ws, section.columns, y, h, true);
    doc.y = y + h;
  };
  head();
  for (const r of cells) {
    const h = rowHeight(doc, r, ws, false);
    if (doc.y + h > bottom(doc)) {
      doc.addPage();
      head();
    }
    const y = doc.y;
    drawRow(doc, r, ws, section.columns, y, h, false);
    doc.y = y + h;
  }
  doc.x = left(doc);
  return cut;
}

/** Label: value lines, two to a row. */
function fieldGrid(doc: Doc, fields: ViewField[], size = 9): void {
  const half = usable(doc) / 2;
  const labelWidth = 120;
  for (let i = 0; i < fields.length; i += 2) {
    const pair = fields.slice(i, i + 2);
    doc.fontSize(size);
    const h = Math.max(
      ...pair.map((f) =>
        Math.max(
          doc.font('Helvetica').heightOfString(latin1(f.value || '-'), { width: half - labelWidth - 8 }),
          doc.font('Helvetica-Bold').heightOfString(latin1(f.label), { width: labelWidth - 4 }),
        ),
      ),
    );
    room(doc, h + 2);
    const y = doc.y;
    pair.forEach((f, j) => {
      const x = left(doc) + j * half;
      doc
        .font('Helvetica-Bold')
        .fontSize(size)
        .fillColor('#333333')
        .text(latin1(f.label), x, y, { width: labelWidth - 4 });
      doc
        .font('Helvetica')
        .fillColor('black')
        .text(latin1(f.value || '-'), x + labelWidth, y, { width: half - labelWidth - 8 });
    });
    doc.x = left(doc);
    doc.y = y + h + 2;
  }
}

/**
 * A real PDF (A4 landscape, standard fonts): the title, the Bacs header block, each section (an
 * originating account's items with its totals, a file, a participant), the report totals and page
 * numbers. At most PDF_MAX_ROWS rows in all and PDF_CELL_CHARS characters a cell, with a note
 * saying what was left out; totals always count everything. CreationDate and ModDate are the
 * report's generation time and the file ID derives from them: the same report, the same bytes.
 */
export async function renderPdf(view: ReportView, generationTime: string): Promise<Uint8Array> {
  // Imported on first render: loading pdfkit costs start-up about half a second.
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const at = new Date(generationTime);
    const doc = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: 36,
      compress: true,
      bufferPages: true,
      info: {
        Title: latin1(view.title),
        Author: 'scheme-sim',
        Subject: latin1(view.subtitle),
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
      doc.font('Helvetica-Bold').fontSize(16).text(latin1(view.title));
      doc.font('Helvetica').fontSize(10).fillColor('#444444').text(latin1(view.subtitle)).fillColor('black');
      doc.moveDown(0.5);
      const top = doc.y;
      doc.y += 4;
      fieldGrid(doc, view.header);
      doc
        .rect(left(doc) - 4, top, usable(doc) + 8, doc.y - top + 2)
        .lineWidth(0.6)
        .strokeColor('#7a8794')
        .stroke();
      doc.y += 10;
      let shown = 0;
      let cut = false;
      let left_out = 0;
      for (const section of view.sections) {
        room(doc, 60);
        doc.font('Helvetica-Bold').fontSize(11).text(latin1(section.heading), left(doc), doc.y);
        doc.moveDown(0.2);
        if (section.fields.length > 0) fieldGrid(doc, section.fields, 8);
        const rows = section.rows.slice(0, Math.max(0, PDF_MAX_ROWS - shown));
        left_out += section.rows.length - rows.length;
        shown += rows.length;
        if (section.rows.length === 0) doc.font('Helvetica-Oblique').fontSize(9).text('No records.');
        else cut = table(doc, section, rows) || cut;
        doc.moveDown(0.3);
        if (section.totals.length > 0) fieldGrid(doc, section.totals);
        doc.moveDown(0.8);
      }
      room(doc, 40);
      doc.font('Helvetica-Bold').fontSize(11).text('Report totals', left(doc), doc.y);
      doc.moveDown(0.2);
      fieldGrid(doc, view.totals);
      const notes = [
        ...view.notes,
        ...(left_out > 0
          ? [`This PDF shows the first ${PDF_MAX_ROWS} records; ${left_out} more are in the XML and XHTML files.`]
          : []),
        ...(cut
          ? [`Values over ${PDF_CELL_CHARS} characters are cut short; the XML and XHTML files hold them whole.`]
          : []),
      ];
      if (notes.length > 0) {
        doc.moveDown(0.5);
        for (const n of notes)
          doc
            .font('Helvetica-Oblique')
            .fontSize(9)
            .text(latin1(n), left(doc), doc.y, { width: usable(doc) });
      }
      const range = doc.bufferedPageRange();
      for (let i = 0; i < range.count; i++) {
        doc.switchToPage(range.start + i);
        const y = doc.page.height - doc.page.margins.bottom + 12;
        // Writing below the bottom margin would start a page: the footer lifts the margin first.
        doc.page.margins.bottom = 0;
        doc.font('Helvetica').fontSize(7).fillColor('#666666');
        doc.text(latin1(`${view.title} - page ${i + 1} of ${range.count}`), left(doc), y, {
          width: usable(doc),
          align: 'right',
          lineBreak: false,
        });
      }
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}
