// Confirmation of Payee's checks in the scheme's order, each with its reason code: the answer a
// participant gives once the account has been looked up and the name matched.
import type { AccountInBehaviour } from '../accounts.ts';
import type { NameMatcher } from './match.ts';

export type ReasonCode =
  | 'SCNS'
  | 'AC01'
  | 'ACNS'
  | 'OPTO'
  | 'CASS'
  | 'IVCR'
  | 'MBAM'
  | 'ANNM'
  | 'BANM'
  | 'PANM'
  | 'BAMM'
  | 'PAMM';

/** A name-verification request, after the API checked its shape. */
export interface VerificationRequest {
  accountType: 'Personal' | 'Business';
  /** Sort code (6 digits) followed by account number (8 digits). */
  identification: string;
  name: string;
  secondaryIdentification?: string | undefined;
}

/** Data.VerificationReport: ReasonCode when not a full match, Name only on a close match. */
export interface VerificationReport {
  Matched: boolean;
  ReasonCode?: ReasonCode;
  Name?: string;
}

const MAX_NAME = 140;

/** The reports that name nothing, one frozen object each: every request is handed the same one. */
const MATCHED: VerificationReport = Object.freeze({ Matched: true });
const REFUSED = Object.fromEntries(
  (['SCNS', 'AC01', 'ACNS', 'OPTO', 'CASS', 'IVCR', 'ANNM', 'BANM', 'PANM'] as const).map((code) => [
    code,
    Object.freeze({ Matched: false, ReasonCode: code }),
  ]),
) as Record<ReasonCode, VerificationReport>;

/** Roll numbers and references compare without case, spaces or punctuation. */
function sameReference(a: string, b: string): boolean {
  const norm = (s: string) => s.toUpperCase().replace(/[^0-9A-Z]/g, '');
  return norm(a) === norm(b);
}

/**
 * The outcome, in the order of docs/design.md: sort code served (SCNS), account exists (AC01),
 * supported (ACNS), not opted out (OPTO), not switched (CASS), secondary identification (IVCR),
 * then the name, with the account type deciding between MBAM/ANNM and BANM/PANM/BAMM/PAMM.
 */
export function decide(input: {
  served: boolean;
  account: AccountInBehaviour | undefined;
  request: VerificationRequest;
  /** The simulator's name matcher (its thresholds and kept results). */
  matcher: NameMatcher;
}): VerificationReport {
  const { served, account, request, matcher } = input;
  if (!served) return REFUSED.SCNS;
  if (!account) return REFUSED.AC01;
  const status = account.name_matching_status;
  if (status === 'not_supported' || !account.name || account.name.length === 0) return REFUSED.ACNS;
  if (account.account_matching_opt_out || status === 'opted_out') return REFUSED.OPTO;
  if (account.switched === true || status === 'switched') return REFUSED.CASS;
  const required = account.secondary_identification;
  if (required && !(request.secondaryIdentification && sameReference(required, request.secondaryIdentification))) {
    return REFUSED.IVCR;
  }
  const match = matcher.matchName(request.name, account);
  if (match.level === 'none') return REFUSED.ANNM;
  const sameType = request.accountType === account.account_classification;
  if (match.level === 'full') {
    if (sameType) return MATCHED;
    return account.account_classification === 'Business' ? REFUSED.BANM : REFUSED.PANM;
  }
  const code = sameType ? 'MBAM' : account.account_classification === 'Business' ? 'BAMM' : 'PAMM';
  // Name is at most 140 characters (as Data.Name); split entries 1 + 2 can hold more.
  return { Matched: false, ReasonCode: code, Name: match.name!.slice(0, MAX_NAME).trim() };
}
