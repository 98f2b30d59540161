// The narrow view the claims timeline has of the reports service: something a report can arrive at.

/** report_type of the DDIC claim submission report (one per organisation and processing day). */
export const DDIC_CLAIM_SUBMISSION_REPORT = 'BACS_DDIC_CLAIM_SUBMISSION';

export interface ReportArrivalInput {
  organisation_id: string;
  report_type: string;
  processing_date?: string;
  rows?: Array<Record<string, unknown>>;
}

/** What the claims timeline needs of the reports service. */
export interface ReportArrivals {
  arrive(input: ReportArrivalInput): unknown;
}
