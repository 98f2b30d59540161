// The list filters of Form3's swagger as one predicate: each filter names a field of the record (a
// dotted path, or a related record's) and how it compares. A malformed bound is refused naming the
// filter, never ignored (which would return the whole list).
import { dateProblem } from '../clock/dates.ts';
import { invalid } from './errors.ts';

export type FilterCompare =
  /** Equal as strings; a list means any of them. */
  | 'exact'
  /** Equal ignoring case (`payment_scheme`: BACS, Bacs). */
  | 'case_insensitive'
  /** Equal as decimal numbers (`amount`: 10, 10.0 and 10.00 are one amount). */
  | 'number'
  /**
   * A YYYY-MM-DD bound, inclusive: the field's date (its first 10 characters) on or after / before
   * it. A date-time bound counts as its UTC date: go-form3 sends the claim list's date filters as
   * date-times (strfmt.DateTime).
   */
  | 'date_from'
  | 'date_to'
  /** A date-time bound, exclusive: the field's instant after / before it. */
  | 'after'
  | 'before'
  /**
   * A date-time bound, inclusive: the field's instant at or after / at or before it (go-form3 sends
   * the name verification list's `*_date_from` / `*_date_to` as date-times). A bare date as `to`
   * takes the whole day.
   */
  | 'instant_from'
  | 'instant_to';

export interface FilterField<R> {
  value: (r: R) => unknown;
  compare: FilterCompare;
}

export type FilterValues = Readonly<Record<string, string | readonly string[] | undefined>>;

const asList = (v: string | readonly string[]) => (typeof v === 'string' ? [v] : v);

const isDateBound = (c: FilterCompare) => c === 'date_from' || c === 'date_to';

/** A date-time given for a date bound, as its UTC date; anything else as given. */
function asDateBound(v: string): string {
  if (v.length <= 10 || Number.isNaN(Date.parse(v))) return v;
  return new Date(v).toISOString().slice(0, 10);
}

function boundProblem(compare: FilterCompare, v: string): string | undefined {
  if (isDateBound(compare)) return dateProblem(v) && 'must be a date (YYYY-MM-DD) or a date-time (RFC 3339)';
  if (compare === 'after' || compare === 'before' || compare === 'instant_from' || compare === 'instant_to')
    return Number.isNaN(Date.parse(v)) ? 'must be a date-time (RFC 3339) or a date' : undefined;
  if (compare === 'number' && !/^\d+(\.\d+)?$/.test(v)) return 'must be a decimal amount';
  return undefined;
}

function matches(compare: FilterCompare, field: unknown, wanted: readonly string[]): boolean {
  if (field === undefined || field === null) return false;
  // A field holding several values (a name in parts) matches when one of them does.
  if (Array.isArray(field)) return field.some((one) => matches(compare, one, wanted));
  const s = String(field);
  switch (compare) {
    case 'exact':
      return wanted.includes(s);
    case 'case_insensitive':
      return wanted.some((w) => w.toLowerCase() === s.toLowerCase());
    case 'number':
      return wanted.some((w) => Number(w) === Number(s));
    case 'date_from':
      return s.slice(0, 10) >= wanted[0]!;
    case 'date_to':
      return s.slice(0, 10) <= wanted[0]!;
    case 'after':
      return Date.parse(s) > Date.parse(wanted[0]!);
    case 'before':
      return Date.parse(s) < Date.parse(wanted[0]!);
    case 'instant_from':
      return Date.parse(s) >= Date.parse(wanted[0]!);
    case 'instant_to':
      return wanted[0]!.length === 10 ? s.slice(0, 10) <= wanted[0]! : Date.parse(s) <= Date.parse(wanted[0]!);
  }
}

/** A predicate over the records for the given filter values; 400 for a malformed bound. */
export function filterPredicate<R>(
  filter: FilterValues,
  fields: Readonly<Record<string, FilterField<R>>>,
): (r: R) => boolean {
  const active: Array<[FilterField<R>, readonly string[]]> = [];
  for (const [name, v] of Object.entries(filter)) {
    const field = fields[name];
    if (v === undefined || !field) continue;
    const list = isDateBound(field.compare) ? asList(v).map(asDateBound) : asList(v);
    for (const one of list) {
      const problem = boundProblem(field.compare, one);
      if (problem) throw invalid(`filter[${name}] ${problem}: ${JSON.stringify(one)}`);
    }
    active.push([field, list]);
  }
  return (r) => active.every(([field, wanted]) => matches(field.compare, field.value(r), wanted));
}

/** The value at a dotted path of an object (`debtor_party.bank_id`). */
export function valueAt(o: unknown, path: string): unknown {
  let v: unknown = o;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
