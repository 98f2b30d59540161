// Opening report files with ordinary parsers, as a client would: used by the report steps and by
// the unit and route tests (so a file that only looks right to our own code fails).
import { DOMParser } from '@xmldom/xmldom';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { unzipSync } from 'fflate';
import { extractText, getDocumentProxy } from 'unpdf';
import * as xpath from 'xpath';

/** The text of every page of a PDF, joined. Throws when the bytes are not a PDF. */
export async function pdfText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text, totalPages } = await extractText(pdf, { mergePages: true });
  return { text, pages: totalPages };
}

/** Parses XML after checking it is well-formed (throws with the parser's message if not). */
export function parseXml(text: string): Record<string, any> {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`not well-formed XML: ${valid.err.msg} at line ${valid.err.line}`);
  return new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: (name) => name === 'Record' || name === 'tr',
  }).parse(text) as Record<string, any>;
}

/** Unzips a zipped_xhtml file: its entry names and the parsed report.xhtml. */
export function unzipXhtml(bytes: Uint8Array): { entries: string[]; xhtml: string; doc: Record<string, any> } {
  const files = unzipSync(new Uint8Array(bytes));
  const entry = files['report.xhtml'];
  if (!entry) throw new Error(`zip holds no report.xhtml (entries: ${Object.keys(files).join(', ')})`);
  const xhtml = new TextDecoder().decode(entry);
  return { entries: Object.keys(files), xhtml, doc: parseXml(xhtml) };
}

/**
 * The string values an XPath 1.0 expression selects in an XML file (attributes, elements' text, or
 * a count()/string() result as one value), read with a standard DOM and XPath engine as a client's
 * parser would (PHP's DOMXPath, Python's lxml, xml2js walks): `//ReturnedDebitItem/@returnCode`.
 */
export function xpathValues(xml: string, expression: string): string[] {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const result = xpath.select(expression, doc as unknown as Node);
  if (Array.isArray(result)) return result.map((n) => (n as Node).textContent ?? '');
  return [String(result)];
}
