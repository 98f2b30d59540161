// The report and report admission resources, in their own file so the report kinds, the claims
// timeline and the routes can name them without the reports service.
import type { Resource } from '../resource.ts';
import type { ReportFormat } from './catalogue.ts';

export const REPORT_TYPE = 'reports';
export const REPORT_ADMISSION_TYPE = 'report_admissions';

/** A type alias (not an interface) so a Report is also a plain `Resource`. */
export type ReportAttributes = {
  report_type: string;
  report_type_description: string;
  generation_time: string;
  processing_date?: string;
  report_source: string;
  formats: ReportFormat[];
};

export type ReportAdmissionAttributes = {
  admission_datetime: string;
  /** Form3's enum; the simulator admits with delivery_confirmed, `failed` comes from a scenario. */
  status: 'delivery_confirmed' | 'confirmed' | 'failed';
  scheme_status_code?: string;
  scheme_status_code_description?: string;
};

export type Report = Resource<ReportAttributes>;
export type ReportAdmission = Resource<ReportAdmissionAttributes>;

export const reportPath = (id: string) => `/v1/notification/reports/${id}`;

/** A report to arrive: for whom, of which type, and optionally its processing date and content. */
export interface ArrivalInput {
  organisation_id: string;
  report_type: string;
  processing_date?: string;
  /** The report's content lines; when absent, content is generated from the report id. */
  rows?: Array<Record<string, unknown>>;
  /** How the admission ends (default delivery_confirmed): a scenario may fail it. */
  admission?: Omit<ReportAdmissionAttributes, 'admission_datetime'>;
}
