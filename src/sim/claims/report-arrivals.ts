// The narrow view the claims timeline has of the reports service: something a report can arrive at.

/** report_type of the DDIC claim submission report (one per organisation and processing day). */
export const DDIC_CLAIM_SUBMISSION_REPORT = 'DDIC-CLAIM-SUBMISSION';

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

/**
 * Forwards arrivals to whatever `target()` returns at the time of the arrival (the simulator's
 * reports service once it exists); drops them when there is none, so claims work on their own.
 */
export function forwardReportArrivals(target: () => ReportArrivals | undefined): ReportArrivals {
  return {
    arrive(input) {
      return target()?.arrive(input);
    },
  };
}
