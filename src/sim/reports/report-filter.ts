import { dateProblem } from '../../clock/dates.ts';
import { invalid } from '../errors.ts';
import type { Report } from './report-types.ts';

export const REPORT_FILTERS = ['report_type', 'report_source', 'processing_date_from', 'processing_date_to'] as const;
export type ReportFilter = Partial<Record<(typeof REPORT_FILTERS)[number], string>>;

/** A predicate for the report list's filters; a malformed date bound is refused naming the filter. */
export function reportFilter(filter: ReportFilter): (report: Report) => boolean {
  for (const key of ['processing_date_from', 'processing_date_to'] as const) {
    const v = filter[key];
    const problem = v === undefined ? undefined : dateProblem(v);
    if (problem) throw invalid(`filter[${key}] ${problem}`);
  }
  const { report_type, report_source, processing_date_from: from, processing_date_to: to } = filter;
  return ({ attributes: a }) =>
    (report_type === undefined || a.report_type === report_type) &&
    (report_source === undefined || a.report_source === report_source) &&
    (from === undefined || (a.processing_date !== undefined && a.processing_date >= from)) &&
    (to === undefined || (a.processing_date !== undefined && a.processing_date <= to));
}
