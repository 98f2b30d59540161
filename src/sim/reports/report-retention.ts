// Report history grows with the clock: every working day brings each organisation its scheme
// reports. Arrivals older than the retention (scheme time) are dropped when the next day's arrive,
// with their admissions and content, so a long advance stays cheap. Nothing is pending in a
// report, so nothing pending is ever dropped.
import type { Collection } from '../../store/collection.ts';
import type { Repository } from '../repository.ts';
import type { ReportAdmissionAttributes, ReportAttributes } from './report-types.ts';

/** Days of scheme time a report is kept after it arrived (CLI --report-retention; 0 keeps all). */
export const DEFAULT_REPORT_RETENTION_DAYS = 366;
const DAY_MS = 86_400_000;

export interface ReportHistory {
  reports: Repository<ReportAttributes>;
  admissions: Repository<ReportAdmissionAttributes>;
  /** Stored content rows by report id (only their deletion is used). */
  rows: Pick<Collection<{ id: string }>, 'delete'>;
}

/**
 * Drops the organisation's reports that arrived more than `days` before `now`, oldest first, with
 * their admissions and stored rows; no events (housekeeping, not a change a client made). Answers
 * how many went.
 */
export function pruneReports(history: ReportHistory, organisationId: string, now: Date, days: number): number {
  if (days <= 0) return 0;
  const before = new Date(now.getTime() - days * DAY_MS).toISOString();
  let dropped = 0;
  // Arrival order: the first report young enough ends the walk.
  for (const report of history.reports.listFor(organisationId)) {
    if (report.created_on >= before) break;
    for (const ref of report.relationships?.report_admission?.data ?? []) history.admissions.rows.delete(ref.id);
    history.rows.delete(report.id);
    history.reports.rows.delete(report.id);
    dropped++;
  }
  return dropped;
}
