// The items of a report (its lines: a returned debit, an advice, a claim, a settlement cycle), the
// fields a client may give for them when it injects a report, and their checks. A given field
// replaces the drawn one; the fields not given are drawn, so every file is complete and valid.
import { dateProblem } from '../../clock/dates.ts';
import type { SchemeCode } from './scheme-codes.ts';
import { bacsText } from './service-users.ts';

/** One item: field key → value as the scheme writes it (amounts as decimals, sort codes as 6 digits). */
export type Item = Record<string, string>;

export interface FieldSpec {
  key: string;
  /** What the value must be, in the words of the error message. */
  rule: string;
  /** The value as stored, or undefined when the value breaks the rule. */
  read(value: string): string | undefined;
}

const pattern =
  (re: RegExp, rule: string, normalise: (s: string) => string = (s) => s) =>
  (key: string): FieldSpec => ({ key, rule, read: (v) => (re.test(v) ? normalise(v) : undefined) });

export const field = {
  /** A name or reference as Bacs carries it: upper case, at most 18 of A-Z 0-9 . & / - and space. */
  bacsText: (key: string): FieldSpec => ({
    key,
    rule: 'should hold letters or digits (Bacs keeps A-Z 0-9 . & / - and space, upper case, 18 at most)',
    read: (v) => bacsText(v) || undefined,
  }),
  /** Free text (participant names, error lines): at most 200 characters, as the inject schema allows. */
  text: (key: string): FieldSpec => ({
    key,
    rule: 'should not be empty',
    read: (v) => (v.trim() ? v.trim() : undefined),
  }),
  sortCode: pattern(/^\d{2}-?\d{2}-?\d{2}$/, "should match '^\\d{2}-?\\d{2}-?\\d{2}$'", (s) => s.replaceAll('-', '')),
  accountNumber: pattern(/^\d{8}$/, "should match '^\\d{8}$'"),
  /** A positive amount in pounds with at most 2 decimals. */
  amount: (key: string): FieldSpec => ({
    key,
    rule: "should be a positive amount with at most 2 decimal places ('^\\d{1,11}(\\.\\d{1,2})?$')",
    read: (v) => (/^\d{1,11}(\.\d{1,2})?$/.test(v) && /[1-9]/.test(v) ? toDecimal(v) : undefined),
  }),
  count: pattern(/^\d{1,7}$/, "should match '^\\d{1,7}$'", (s) => String(Number(s))),
  /** A number of records the report lists one by one: at most 100. */
  smallCount: (key: string): FieldSpec => ({
    key,
    rule: 'should be a whole number from 0 to 100',
    read: (v) => (/^\d{1,3}$/.test(v) && Number(v) <= 100 ? String(Number(v)) : undefined),
  }),
  digits: (n: number) => pattern(new RegExp(`^\\d{${n}}$`), `should match '^\\d{${n}}$'`),
  time: pattern(/^([01]\d|2[0-3]):[0-5]\d$/, "should match '^([01]\\d|2[0-3]):[0-5]\\d$'"),
  date: (key: string): FieldSpec => ({
    key,
    rule: 'should be a date (YYYY-MM-DD)',
    read: (v) => (dateProblem(v) === undefined ? v : undefined),
  }),
  oneOf: (values: readonly string[]) => (key: string) => ({
    key,
    rule: `should be one of [${values.join(' ')}]`,
    read: (v: string) => (values.includes(v.toUpperCase()) ? v.toUpperCase() : undefined),
  }),
  code: (codes: readonly SchemeCode[]) => field.oneOf(codes.map((c) => c.code)),
};

/** "12.5" → "12.50": the amount as the scheme writes it. */
export function toDecimal(v: string): string {
  const [pounds, pence = ''] = v.split('.');
  return `${BigInt(pounds!).toString()}.${pence.padEnd(2, '0')}`;
}

/** A value as a client sent it (the inject schema allows scalars): text, or undefined for null. */
function textOf(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  return String(v);
}

/**
 * Why client rows do not fit the fields of a report type, in go-swagger's words (`rows.2.Amount in
 * body should be …`), or undefined when they all do. Null counts as absent.
 */
export function itemsProblem(
  reportType: string,
  kind: { fields: readonly FieldSpec[]; minRows?: number },
  rows: ReadonlyArray<Record<string, unknown>>,
): string | undefined {
  const { fields, minRows = 0 } = kind;
  if (rows.length < minRows) return `rows in body should have at least ${minRows} items for ${reportType}`;
  const byKey = new Map(fields.map((f) => [f.key, f]));
  for (const [i, row] of rows.entries()) {
    for (const [key, raw] of Object.entries(row)) {
      const spec = byKey.get(key);
      if (!spec) {
        return `rows.${i}.${key} in body is not a field of ${reportType} rows; fields: ${fields.map((f) => f.key).join(', ')}`;
      }
      const value = textOf(raw);
      if (value !== undefined && spec.read(value) === undefined) return `rows.${i}.${key} in body ${spec.rule}`;
    }
  }
  return undefined;
}

/**
 * The fields of a given row, read. A client's rows were checked with `itemsProblem` when injected;
 * the simulation's own rows are taken as they are, even where a value breaks a rule, so a report
 * never hides what the simulation did.
 */
export function readRow(fields: readonly FieldSpec[], row: Record<string, unknown>): Item {
  const item: Item = {};
  for (const spec of fields) {
    const value = textOf(row[spec.key]);
    if (value !== undefined) item[spec.key] = spec.read(value) ?? value;
  }
  return item;
}
