// When the requester asks Form3's API, the payee bank's Open Banking answer is written back as Form3
// resources: the submission, the admission and the answer attributes they carry.
import type { VerificationReport } from './decide.ts';
import type { AdmissionAttributes, AnswerAttributes, SubmissionAttributes } from './name-verification-records.ts';
import { REASON_TEXT } from './reason-codes.ts';

/** What came back from the payee's bank for one request. */
export type ResponderOutcome =
  /** Its endpoint answered 200 with this report. */
  | { kind: 'answered'; report: VerificationReport }
  /** Its endpoint answered an error (its status and Open Banking error), or no answer came. */
  | { kind: 'failed'; reason: string };

/**
 * The answer in Form3's terms: `confirmed` exactly when Matched, the reason code with its words,
 * and the held name as actual_name (the report carries Name only on a close match). Nothing else
 * of the payee's account reaches the requester.
 */
export function answerOf(report: VerificationReport): AnswerAttributes {
  return {
    answer: report.Matched ? 'confirmed' : 'rejected',
    ...(report.ReasonCode ? { reason_code: report.ReasonCode, reason: REASON_TEXT[report.ReasonCode] } : {}),
    ...(report.Name !== undefined ? { actual_name: report.Name } : {}),
  };
}

/** The requester's submission: delivered with the answer, or failed saying why. */
export function submissionOf(outcome: ResponderOutcome): SubmissionAttributes {
  if (outcome.kind === 'failed') return { status: 'delivery_failed', status_reason: outcome.reason };
  return { status: 'delivery_confirmed', ...answerOf(outcome.report) };
}

/** The responder's admission of the same request: confirmed with the answer it gave, or failed. */
export function admissionOf(outcome: ResponderOutcome, requesterBank: string): AdmissionAttributes {
  const debtor_party = { account_with: { bank_name: requesterBank } };
  if (outcome.kind === 'failed') return { status: 'failed', status_reason: outcome.reason, debtor_party };
  return { status: 'confirmed', ...answerOf(outcome.report), debtor_party };
}

/** A sort code no participant serves: rejected as SCNS without a responder (docs/cop.md says why). */
export function unknownBankSubmission(sortCode: string): SubmissionAttributes {
  return {
    status: 'delivery_confirmed',
    answer: 'rejected',
    reason_code: 'SCNS',
    reason: REASON_TEXT.SCNS,
    status_reason: `no Confirmation of Payee participant serves sort code ${sortCode}`,
  };
}
