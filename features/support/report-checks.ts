// What the harness checks of a report on any target, apart from the HTTP: the window of days it
// looks in, the first bytes each format's file must start with, and the formats the double offers
// for each report type (fixtures/reports/catalogue.json), so a target that offers others diverges.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addBacsWorkingDays } from '../../src/harness/bacs-days.ts';
import { FIXTURES_DIR } from '../../src/index.ts';
import type { Settings } from './settings.ts';

/** The media type that asks for each report format (Form3: the report's `links.<format>.meta`). */
export const REPORT_MEDIA_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  xml: 'application/xml',
  zipped_xhtml: 'application/xhtml+zip',
};

/** How many Bacs working days back the harness looks for reports, unless CONFORMANCE_REPORT_DAYS says. */
export const DEFAULT_REPORT_DAYS = 5;

/** The first processing date of the window: CONFORMANCE_REPORT_DAYS working days before `today`. */
export function reportWindowStart(settings: Settings, today: string): string {
  const given = settings.CONFORMANCE_REPORT_DAYS;
  const days = given === undefined ? DEFAULT_REPORT_DAYS : Number(given);
  if (!Number.isInteger(days) || days < 0 || days > 60)
    throw new Error(`CONFORMANCE_REPORT_DAYS must be a whole number of working days from 0 to 60, got ${given}`);
  return addBacsWorkingDays(today, -days);
}

const MAGIC: Record<string, { bytes: number[]; what: string }> = {
  pdf: { bytes: [...'%PDF-'].map((c) => c.charCodeAt(0)), what: '%PDF-' },
  // A zip's local file header.
  zipped_xhtml: { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'PK\\x03\\x04' },
  xml: { bytes: [...'<?xml'].map((c) => c.charCodeAt(0)), what: '<?xml' },
};

/** Why the file's first bytes are not those of its format, or undefined when they are. */
export function magicProblem(format: string, bytes: Uint8Array): string | undefined {
  const magic = MAGIC[format];
  if (!magic) return `no known format ${format}`;
  // An XML declaration may follow a byte order mark.
  const start = format === 'xml' && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const head = bytes.slice(start, start + magic.bytes.length);
  if (magic.bytes.every((b, i) => head[i] === b)) return undefined;
  const seen = Buffer.from(bytes.slice(0, 8)).toString('hex');
  return `a ${format} file starts with ${magic.what}; this one starts with bytes ${seen}`;
}

let catalogue: Map<string, string[]> | undefined;

/** The formats the double offers for a report type, or undefined for a type it does not know. */
export function doubleFormats(reportType: string): string[] | undefined {
  catalogue ??= new Map(
    (
      JSON.parse(readFileSync(join(FIXTURES_DIR, 'reports', 'catalogue.json'), 'utf8')) as Array<{
        report_type: string;
        formats: string[];
      }>
    ).map((e) => [e.report_type, e.formats]),
  );
  return catalogue.get(reportType);
}

/** The report types the double knows, in its catalogue's order. */
export function doubleReportTypes(): string[] {
  doubleFormats('');
  return [...catalogue!.keys()];
}
