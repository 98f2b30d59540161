// A report's zipped XHTML format: the same view as the PDF, as a document a browser opens, zipped to
// the same bytes every time.
import { zipSync } from 'fflate';
import { escapeXml, xmlName } from './markup.ts';
import type { ReportView, ViewField } from './report-view.ts';

const STYLE = [
  'body{font-family:sans-serif;font-size:12px;margin:1.5em}',
  'h1{font-size:18px;margin-bottom:0}p.subtitle{color:#555;margin-top:2px}',
  'dl{display:grid;grid-template-columns:max-content auto max-content auto;gap:2px 12px}',
  'dl.header{border:1px solid #7a8794;padding:8px}dt{font-weight:bold}dd{margin:0}',
  'table{border-collapse:collapse;margin:4px 0}th,td{border:1px solid #bbb;padding:2px 6px;text-align:left}',
  'th{background:#dde3ea}td.right,th.right{text-align:right}h2{font-size:14px;margin-top:1.2em}',
].join('');

const e = escapeXml;

function fields(cls: string, fs: ViewField[]): string {
  if (fs.length === 0) return '';
  const items = fs.map((f) => `<dt>${e(f.label)}</dt><dd class="${xmlName(f.name)}">${e(f.value)}</dd>`).join('\n');
  return `<dl class="${cls}">\n${items}\n</dl>`;
}

/** A well-formed XHTML 1.0 document of the view: the header block, each section's table and totals, the report totals. */
export function renderXhtml(view: ReportView): string {
  const sections = view.sections.map((s) => {
    const right = (i: number) => (s.columns[i]?.align === 'right' ? ' class="right"' : '');
    const head = s.columns.map((c, i) => `<th scope="col"${right(i)}>${e(c.label)}</th>`).join('');
    const body = s.rows.map((r) => `<tr>${r.map((c, i) => `<td${right(i)}>${e(c)}</td>`).join('')}</tr>`).join('\n');
    return [
      `<div class="section">`,
      `<h2>${e(s.heading)}</h2>`,
      fields('section-fields', s.fields),
      s.rows.length === 0
        ? '<p>No records.</p>'
        : `<table class="records"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`,
      fields('section-totals', s.totals),
      '</div>',
    ]
      .filter((l) => l !== '')
      .join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">',
    '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">',
    `<head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" /><title>${e(view.title)}</title><style type="text/css">${STYLE}</style></head>`,
    '<body>',
    `<h1>${e(view.title)}</h1>`,
    `<p class="subtitle">${e(view.subtitle)}</p>`,
    fields('header', view.header),
    ...sections,
    '<h2>Report totals</h2>',
    fields('totals', view.totals),
    ...view.notes.map((n) => `<p class="note">${e(n)}</p>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * A zip holding report.xhtml. The entry's time is the report's generation time (not the wall
 * clock), so the same report always zips to the same bytes.
 */
export function renderZippedXhtml(view: ReportView, generationTime: string): Uint8Array {
  const xhtml = new TextEncoder().encode(renderXhtml(view));
  return zipSync({ 'report.xhtml': [xhtml, { mtime: new Date(generationTime), level: 6 }] });
}
