// What a person reads: the PDF and the XHTML are drawn from this view of a report's data (the XML
// is written from the data itself). Labels are words, amounts carry separators and the currency,
// sort codes read 12-34-56.
import { formatPence, toPence } from '../payments/money.ts';

export interface ViewField {
  /** Machine name: the XHTML class. */
  name: string;
  label: string;
  value: string;
}

export interface ViewColumn {
  label: string;
  /** Numbers and amounts line up on the right. */
  align?: 'right';
}

/** A block of the report: an originating account's items, a file's totals, a participant's cycles. */
export interface ViewSection {
  heading: string;
  fields: ViewField[];
  columns: ViewColumn[];
  rows: string[][];
  totals: ViewField[];
}

export interface ReportView {
  title: string;
  /** The scheme's name of the report (e.g. "ARUDD"), shown under the title. */
  subtitle: string;
  /** The header block: service user, report number, processing date, originating account. */
  header: ViewField[];
  sections: ViewSection[];
  /** Totals of the whole report. */
  totals: ViewField[];
  notes: string[];
}

export const viewField = (name: string, label: string, value: string): ViewField => ({ name, label, value });

/** "400300" → "40-03-00". */
export function dashedSortCode(s: string): string {
  return /^\d{6}$/.test(s) ? `${s.slice(0, 2)}-${s.slice(2, 4)}-${s.slice(4)}` : s;
}

/** "1234567.5" → "1,234,567.50"; negative amounts keep their sign. */
export function thousands(amount: string): string {
  const negative = amount.startsWith('-');
  const [pounds, pence = '00'] = (negative ? amount.slice(1) : amount).split('.');
  const grouped = pounds!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}.${pence.padEnd(2, '0')}`;
}

/** An amount as a person reads it: "GBP 1,234.56". */
export function money(amount: string, currency = 'GBP'): string {
  return `${currency} ${thousands(amount)}`;
}

/** A count with thousands separators. */
export function count(n: number | string): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The exact sum of decimal amounts ("12.30"), from integer pence. */
export function sum(amounts: Iterable<string>): string {
  let total = 0n;
  for (const a of amounts) total += a.startsWith('-') ? -toPence(a.slice(1)) : toPence(a);
  return formatPence(total);
}

/** a − b of decimal amounts, exactly. */
export function difference(a: string, b: string): string {
  return sum([a, b.startsWith('-') ? b.slice(1) : `-${b}`]);
}

/** An account as one line: "40-03-00 90112233 NORTHWIND COLLECT". */
export function accountLine(a: { sort_code: string; account_number: string; name: string }): string {
  return `${dashedSortCode(a.sort_code)} ${a.account_number} ${a.name}`;
}

/** The header block of a Bacs report: service user, the report's number, dates, originating account. */
export function bacsHeader(h: {
  user: {
    service_user_number: string;
    service_user_name: string;
    originating_accounts: Array<Parameters<typeof accountLine>[0]>;
  };
  report: string;
  numberLabel: string;
  number: string;
  processingDate: string;
  generationTime: string;
  reportId: string;
}): ViewField[] {
  const accounts = h.user.originating_accounts;
  return [
    viewField('ServiceUserNumber', 'Service user number', h.user.service_user_number),
    viewField('ServiceUserName', 'Service user name', h.user.service_user_name),
    viewField('Report', 'Bacs report', h.report),
    viewField('ReportNumber', h.numberLabel, h.number),
    viewField('ProcessingDate', 'Processing date', h.processingDate),
    viewField(
      'OriginatingAccount',
      accounts.length === 1 ? 'Originating account' : 'Originating accounts',
      accounts.map(accountLine).join('; '),
    ),
    viewField('Generated', 'Produced', `${h.generationTime.slice(0, 10)} ${h.generationTime.slice(11, 19)} UTC`),
    viewField('ReportId', 'Report id', h.reportId),
  ];
}
