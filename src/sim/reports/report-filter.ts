// The filters of Form3's report list, declared as fields for the shared list filter.
import { type FilterField, filterPredicate } from '../list-filter.ts';
import type { Report } from './report-types.ts';

/** Every filter of Form3's report list (organisation_id: the caller's own, as everywhere). */
export const REPORT_FILTERS = [
  'organisation_id',
  'report_type',
  'report_type_description',
  'report_source',
  'created_on_after',
  'created_on_before',
  'modified_on_after',
  'modified_on_before',
  'processing_date_from',
  'processing_date_to',
] as const;
export type ReportFilter = Partial<Record<(typeof REPORT_FILTERS)[number], string>>;

const FIELDS: Readonly<Record<string, FilterField<Report>>> = {
  organisation_id: { value: (r) => r.organisation_id, compare: 'exact' },
  report_type: { value: (r) => r.attributes.report_type, compare: 'exact' },
  report_type_description: { value: (r) => r.attributes.report_type_description, compare: 'exact' },
  report_source: { value: (r) => r.attributes.report_source, compare: 'exact' },
  created_on_after: { value: (r) => r.created_on, compare: 'after' },
  created_on_before: { value: (r) => r.created_on, compare: 'before' },
  modified_on_after: { value: (r) => r.modified_on, compare: 'after' },
  modified_on_before: { value: (r) => r.modified_on, compare: 'before' },
  processing_date_from: { value: (r) => r.attributes.processing_date, compare: 'date_from' },
  processing_date_to: { value: (r) => r.attributes.processing_date, compare: 'date_to' },
};

/** A predicate for the report list's filters; a malformed bound is refused naming the filter. */
export function reportFilter(filter: ReportFilter): (report: Report) => boolean {
  return filterPredicate(filter, FIELDS);
}
