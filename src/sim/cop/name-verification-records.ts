// Form3's name verification request API as go-form3 defines it (pkg/generated/models,
// NameVerification*): the request a member sends (`name_verifications`), its submission to the
// payee's bank with the answer (`name_verification_submissions`), and the admission of a request
// at the payee's bank (`name_verification_admissions`). Facts and sources: docs/cop.md.
import type { Resource } from '../resource.ts';
import type { ReasonCode } from './decide.ts';

export const NAME_VERIFICATION_TYPE = 'name_verifications';
export const NAME_VERIFICATION_SUBMISSION_TYPE = 'name_verification_submissions';
export const NAME_VERIFICATION_ADMISSION_TYPE = 'name_verification_admissions';

/** models/name_verification_attributes.go, as sent (Form3 echoes a request as it was given). */
export interface NameVerificationAttributes {
  /** account_classification.go: `personal` or `business`. */
  account_classification?: 'personal' | 'business';
  /** `^[A-Z0-9]{6,34}$`. */
  account_number: string;
  /** account_number_code.go: `IBAN` or `BBAN`. */
  account_number_code: 'IBAN' | 'BBAN';
  bank_id: string;
  /** bank_id_code.go: `GBDSC` for a UK sort code, among others. */
  bank_id_code: string;
  id_code_type?: string;
  /** The payee's name as the payer gave it, in parts (each 1–256 characters). */
  name: string[];
  psp_request_id?: string;
  request_datetime?: string;
  requester?: { bank_id: string; bank_id_code: string };
  secondary_identification?: string;
  /** verification_scheme.go: `CoP` or `VoP`. */
  verification_scheme?: 'CoP' | 'VoP';
}

/** What an answer carries, on both sides (the submission's and the admission's attributes). */
export interface AnswerAttributes {
  /** `confirmed` on a full match, `rejected` otherwise; absent when no answer came. */
  answer?: 'confirmed' | 'rejected';
  reason_code?: ReasonCode;
  /** The reason code in words (the simulator's wording). */
  reason?: string;
  /** The name the payee's bank holds, on a close match only. */
  actual_name?: string;
  /** Why there is no answer, or how the answer came about. */
  status_reason?: string;
}

/** models/name_verification_submission_attributes.go: the request as sent to the payee's bank. */
export interface SubmissionAttributes extends AnswerAttributes {
  /** name_verification_submission_status.go. */
  status: 'delivery_confirmed' | 'delivery_failed';
}

/** models/name_verification_admission_attributes.go: a request as the payee's bank received it. */
export interface AdmissionAttributes extends AnswerAttributes {
  /** name_verification_admission_status.go. */
  status: 'confirmed' | 'failed';
  /** The payer's bank (models/debtor_party.go: account_with.bank_name). */
  debtor_party?: { account_with: { bank_name: string } };
}

export type NameVerificationRecord = Resource<NameVerificationAttributes>;
export type SubmissionRecord = Resource<SubmissionAttributes>;
export type AdmissionRecord = Resource<AdmissionAttributes>;

/** Every filter of ListNameVerifications (client/name_verification_api/list_name_verifications_requests.go). */
export const NAME_VERIFICATION_FILTERS = [
  'account_classification',
  'account_number',
  'bank_id',
  'bank_id_code',
  'name',
  'organisation_id',
  'secondary_identification',
  'created_date_from',
  'created_date_to',
  'modified_date_from',
  'modified_date_to',
  'admission.actual_name',
  'admission.answer',
  'admission.reason',
  'admission.reason_code',
  'admission.status',
  'admission.created_date_from',
  'admission.created_date_to',
  'admission.modified_date_from',
  'admission.modified_date_to',
  'submission.actual_name',
  'submission.answer',
  'submission.reason',
  'submission.reason_code',
  'submission.status',
  'submission.created_date_from',
  'submission.created_date_to',
  'submission.modified_date_from',
  'submission.modified_date_to',
] as const;
export type NameVerificationFilter = Partial<
  Record<(typeof NAME_VERIFICATION_FILTERS)[number], string | readonly string[]>
>;
