import { createHash } from 'node:crypto';
import type { Faker } from '@faker-js/faker';
import type { CatalogueEntry } from './catalogue.ts';
import { type Column, generateTable } from './content-generators.ts';
import type { Report } from './report-types.ts';

export interface Field {
  /** Machine name: the XML element and the XHTML class. */
  name: string;
  label: string;
  value: string;
}

/** Everything a rendered file shows, in the order it shows it. Every renderer reads only this. */
export interface ReportContent {
  title: string;
  /** Element under BACSDocument/Data. */
  element: string;
  header: Field[];
  columns: Column[];
  rows: Array<Record<string, string>>;
  totals: Field[];
}

let fakerModule: Promise<typeof import('@faker-js/faker')> | undefined;

/** faker with a fixed seed. Imported on first use: loading it costs start-up about half a second. */
async function seededFaker(seed: number): Promise<Faker> {
  fakerModule ??= import('@faker-js/faker');
  const { Faker: FakerClass, en_GB, en, base } = await fakerModule;
  const faker = new FakerClass({ locale: [en_GB, en, base] });
  faker.seed(seed);
  return faker;
}

/** A 32-bit seed from a report id: the same report always draws the same content. */
export function seedOf(id: string): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0);
}

/** A value as it is printed: scalars as text, anything else as JSON. */
function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** Columns of client-supplied rows: every key, in order of first appearance. */
function columnsOf(rows: Array<Record<string, unknown>>): Column[] {
  const keys = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) keys.add(k);
  return [...keys].map((k) => ({ key: k, label: k }));
}

const AMOUNT_KEYS = /amount|value/i;

/** Count and, for columns holding money, the sum of the column in pence (exact) shown in pounds. */
function totalsOf(columns: Column[], rows: Array<Record<string, string>>): Field[] {
  const totals: Field[] = [{ name: 'RecordCount', label: 'Records', value: String(rows.length) }];
  for (const c of columns) {
    if (!AMOUNT_KEYS.test(c.key)) continue;
    let pence = 0n;
    let numeric = rows.length > 0;
    for (const r of rows) {
      const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(r[c.key] ?? '');
      if (!m) {
        numeric = false;
        break;
      }
      const p = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '0').padEnd(2, '0'));
      pence += m[1] ? -p : p;
    }
    if (!numeric) continue;
    const neg = pence < 0n;
    const abs = neg ? -pence : pence;
    totals.push({
      name: `Total${c.key}`,
      label: `Total ${c.label.toLowerCase()}`,
      value: `${neg ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`,
    });
  }
  return totals;
}

/**
 * The content of a report: the header fields from its attributes, and its rows — the ones given on
 * arrival, or drawn with faker seeded from the report id so that every render is the same.
 */
export async function reportContent(
  report: Report,
  entry: CatalogueEntry | undefined,
  organisationName: string,
  givenRows?: Array<Record<string, unknown>>,
): Promise<ReportContent> {
  const a = report.attributes;
  const header: Field[] = [
    { name: 'ReportId', label: 'Report id', value: report.id },
    { name: 'ReportType', label: 'Report type', value: a.report_type },
    { name: 'ReportSource', label: 'Report source', value: a.report_source },
    { name: 'Organisation', label: 'Organisation', value: organisationName },
    { name: 'OrganisationId', label: 'Organisation id', value: report.organisation_id },
    { name: 'ProcessingDate', label: 'Processing date', value: a.processing_date ?? '' },
    { name: 'GenerationTime', label: 'Generation time', value: a.generation_time },
  ];
  let columns: Column[];
  let rows: Array<Record<string, string>>;
  if (givenRows) {
    columns = columnsOf(givenRows);
    rows = givenRows.map((r) => Object.fromEntries(columns.map((c) => [c.key, text(r[c.key])])));
  } else {
    const faker = await seededFaker(seedOf(report.id));
    const generated = generateTable(
      entry?.content ?? 'transaction_summary',
      faker,
      a.processing_date ?? a.generation_time.slice(0, 10),
    );
    columns = generated.columns;
    rows = generated.rows;
  }
  return {
    title: a.report_type_description,
    element: entry?.xml_element ?? 'Report',
    header,
    columns,
    rows,
    totals: totalsOf(columns, rows),
  };
}
