import { zipSync } from 'fflate';
import { escapeXml, xmlName } from './markup.ts';
import type { ReportContent } from './report-content.ts';

const STYLE =
  'body{font-family:sans-serif;font-size:12px}table{border-collapse:collapse}th,td{border:1px solid #999;padding:2px 6px;text-align:left}dt{font-weight:bold;float:left;clear:left;width:12em}dd{margin-left:13em}';

/** A well-formed XHTML 1.0 document with the header as a definition list and the rows as a table. */
export function renderXhtml(content: ReportContent): string {
  const e = escapeXml;
  const header = content.header
    .map((f) => `<dt>${e(f.label)}</dt><dd class="${xmlName(f.name)}">${e(f.value)}</dd>`)
    .join('\n');
  const head = content.columns.map((c) => `<th scope="col">${e(c.label)}</th>`).join('');
  const body = content.rows
    .map(
      (r) =>
        `<tr>${content.columns.map((c) => `<td class="${xmlName(c.key)}">${e(r[c.key] ?? '')}</td>`).join('')}</tr>`,
    )
    .join('\n');
  const totals = content.totals
    .map((f) => `<dt>${e(f.label)}</dt><dd class="${xmlName(f.name)}">${e(f.value)}</dd>`)
    .join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">',
    '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">',
    `<head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" /><title>${e(content.title)}</title><style type="text/css">${STYLE}</style></head>`,
    '<body>',
    `<h1>${e(content.title)}</h1>`,
    `<dl class="header">\n${header}\n</dl>`,
    `<table class="records"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`,
    `<dl class="totals">\n${totals}\n</dl>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * A zip holding report.xhtml. The entry's time is the report's generation time (not the wall
 * clock), so the same report always zips to the same bytes.
 */
export function renderZippedXhtml(content: ReportContent, generationTime: string): Uint8Array {
  const xhtml = new TextEncoder().encode(renderXhtml(content));
  return zipSync({ 'report.xhtml': [xhtml, { mtime: new Date(generationTime), level: 6 }] });
}
