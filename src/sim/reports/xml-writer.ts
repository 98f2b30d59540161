// A small writer of indented XML: elements with attributes (in the order given) and children.
import { escapeXml } from './markup.ts';

export interface XmlNode {
  name: string;
  attrs?: Record<string, string | number | undefined>;
  children?: Array<XmlNode | undefined>;
  text?: string;
}

/** An element; attributes whose value is undefined are left out, as are undefined children. */
export function el(
  name: string,
  attrs: XmlNode['attrs'] = {},
  children: Array<XmlNode | undefined> | string = [],
): XmlNode {
  return typeof children === 'string' ? { name, attrs, text: children } : { name, attrs, children };
}

function write(node: XmlNode, indent: string, out: string[]): void {
  const attrs = Object.entries(node.attrs ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');
  const children = (node.children ?? []).filter((c): c is XmlNode => c !== undefined);
  if (node.text !== undefined) {
    out.push(`${indent}<${node.name}${attrs}>${escapeXml(node.text)}</${node.name}>`);
  } else if (children.length === 0) {
    out.push(`${indent}<${node.name}${attrs}/>`);
  } else {
    out.push(`${indent}<${node.name}${attrs}>`);
    for (const c of children) write(c, `${indent}  `, out);
    out.push(`${indent}</${node.name}>`);
  }
}

/** The document: the XML declaration, then the root element indented by two spaces a level. */
export function xmlDocument(root: XmlNode): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  write(root, '', out);
  out.push('');
  return out.join('\n');
}

/**
 * A Bacs document as real files are: `BACSDocument/Data/<report>` then `SignatureMethod` and
 * `Signature`. The simulator signs nothing: the method is `Vanilla` (as in public samples) and the
 * signature is empty.
 */
export function bacsDocument(schema: 'newbacs-advices.xsd' | 'newbacs-reports.xsd', report: XmlNode): string {
  return xmlDocument(
    el(
      'BACSDocument',
      {
        'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
        'xsi:noNamespaceSchemaLocation': schema,
      },
      [el('Data', {}, [report]), el('SignatureMethod', {}, 'Vanilla'), el('Signature', {}, '')],
    ),
  );
}
