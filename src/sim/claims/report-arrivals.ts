// The narrow view the claims timeline has of the reports service: something a report can arrive at.
import type { ArrivalInput } from '../reports/report-types.ts';

/** report_type of the DDIC claim submission report (one per organisation and processing day). */
export const DDIC_CLAIM_SUBMISSION_REPORT = 'BACS_DDIC_CLAIM_SUBMISSION';

/** What the claims timeline needs of the reports service. */
export interface ReportArrivals {
  arrive(input: ArrivalInput): unknown;
}
