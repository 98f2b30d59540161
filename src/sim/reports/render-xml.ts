import { escapeXml, xmlName } from './markup.ts';
import type { Field, ReportContent } from './report-content.ts';

const fields = (fs: Field[], indent: string) =>
  fs.map((f) => `${indent}<${xmlName(f.name)}>${escapeXml(f.value)}</${xmlName(f.name)}>`).join('\n');

/**
 * A Bacs-style XML document: `BACSDocument/Data/<Report>` holding a Header, one Record per row
 * (one element per field) and the Totals.
 */
export function renderXml(content: ReportContent): Uint8Array {
  const el = xmlName(content.element);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<BACSDocument>',
    '  <Data>',
    `    <${el}>`,
    '      <Header>',
    `        <Title>${escapeXml(content.title)}</Title>`,
    fields(content.header, '        '),
    '      </Header>',
    '      <Records>',
  ];
  for (const row of content.rows) {
    lines.push('        <Record>');
    for (const c of content.columns) {
      const name = xmlName(c.key);
      lines.push(`          <${name}>${escapeXml(row[c.key] ?? '')}</${name}>`);
    }
    lines.push('        </Record>');
  }
  lines.push(
    '      </Records>',
    '      <Totals>',
    fields(content.totals, '        '),
    '      </Totals>',
    `    </${el}>`,
    '  </Data>',
    '</BACSDocument>',
    '',
  );
  return new TextEncoder().encode(lines.join('\n'));
}
