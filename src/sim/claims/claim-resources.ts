// The four claim resources, their attributes and where each is addressed.
import { type Resource, relatedId } from '../resource.ts';

export const CLAIM_TYPE = 'claims';
export const CLAIM_SUBMISSION_TYPE = 'claim_submissions';
export const CLAIM_REVERSAL_TYPE = 'claim_reversals';
export const CLAIM_REVERSAL_SUBMISSION_TYPE = 'claim_reversal_submissions';

export interface ClaimAttributes {
  /** Echoed as the client spelt it (Form3's enum value is BACS); Bacs in any case passes validation. */
  payment_scheme: string;
  clearing_id: string;
  reference: string;
  reason_code: string;
  contact_name?: string;
  processing_date?: string;
  request_date?: string;
  number_of_claims: number;
  beneficiary_party: { account_number: string; bank_id: string };
  debtor_party: { account_name: string; account_number: string; bank_id: string };
  original_instruction: { clearing_id: string; reference: string };
  disputed_transactions: Array<{ amount: string; date: string }>;
}

/** Form3's `ClaimSubmissionStatus` enum, used for both submission kinds; nothing outside it is stored. */
export const CLAIM_SUBMISSION_STATUSES = [
  'accepted',
  'validation_pending',
  'validation_passed',
  'validation_failed',
  'released_to_gateway',
  'queued_for_delivery',
  'delivery_confirmed',
  'delivery_failed',
] as const;
export type ClaimSubmissionStatus = (typeof CLAIM_SUBMISSION_STATUSES)[number];

/** The statuses a claim submission passes through when nothing fails, in order. */
export const CLAIM_SUBMISSION_PATH = [
  'validation_pending',
  'validation_passed',
  'released_to_gateway',
  'queued_for_delivery',
  'delivery_confirmed',
] as const satisfies readonly ClaimSubmissionStatus[];

/** Where a submission stops when the scheme refuses it. */
export const FAILED_CLAIM_SUBMISSION_STATUSES: readonly ClaimSubmissionStatus[] = [
  'validation_failed',
  'delivery_failed',
];

export interface ClaimSubmissionAttributes {
  status: ClaimSubmissionStatus;
  /** Why the submission failed: the scheme rule it broke, or the scenario that failed it. */
  status_reason?: string;
  /** Scheme-clock instant the submission was accepted. */
  submission_datetime: string;
  /** D0: the Bacs working day the submission counts for (22:00 London cut-off). */
  submission_date: string;
  /** D0+1: processed, sequence number assigned, submission report sent. */
  processing_date: string;
  /** D0+2: delivered to the originator. */
  delivery_date: string;
  /** D0+11: the last working day a reversal is accepted. */
  reversal_deadline: string;
  /** D0+14 (later when a scenario delays the contra): settled by the contra unless reversed. */
  settlement_date: string;
  /** The scheme sequence number, from processing (D0+1) on. */
  sequence_number?: string;
}

export interface ClaimReversalAttributes {
  original_instruction_id: string;
}

export type ClaimReversalSubmissionStatus = Extract<ClaimSubmissionStatus, 'accepted' | 'delivery_confirmed'>;

export interface ClaimReversalSubmissionAttributes {
  status: ClaimReversalSubmissionStatus;
  submission_datetime: string;
  /** The Bacs working day the reversal submission counts for (22:00 London cut-off). */
  submission_date: string;
  /** The next working day: processed and delivered (`delivery_confirmed`). */
  processing_date: string;
}

export type Claim = Resource<ClaimAttributes>;
export type ClaimSubmission = Resource<ClaimSubmissionAttributes>;
export type ClaimReversal = Resource<ClaimReversalAttributes>;
export type ClaimReversalSubmission = Resource<ClaimReversalSubmissionAttributes>;

export const claimPath = (r: Resource<object>) => `/v1/transaction/claims/${r.id}`;
export const claimSubmissionPath = (r: Resource<object>) =>
  `/v1/transaction/claims/${relatedId(r, 'claim')}/submissions/${r.id}`;
export const claimReversalPath = (r: Resource<object>) =>
  `/v1/transaction/claims/${relatedId(r, 'claim')}/reversals/${r.id}`;
export const claimReversalSubmissionPath = (r: Resource<object>) =>
  `/v1/transaction/claims/${relatedId(r, 'claim')}/reversals/${relatedId(r, 'claim_reversal')}/submissions/${r.id}`;
