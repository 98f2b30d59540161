// A requester shows its user why a name did not match: each Confirmation of Payee reason code in
// words, for the `reason` of Form3's answer.
import type { ReasonCode } from './decide.ts';

/**
 * The `reason` of a name verification answer: its reason code in words. The codes and their
 * meanings are the Confirmation of Payee scheme's (docs/cop.md, Outcomes); the wording is the
 * simulator's. Form3's enum also has CMTC, NMTC and NOAP (Verification of Payee codes), which a
 * Confirmation of Payee answer never carries.
 */
export const REASON_TEXT: Readonly<Record<ReasonCode, string>> = {
  ANNM: 'the name does not match the account name',
  MBAM: 'the name is a close match to the account name',
  BANM: 'the name matches, but the account is a business account',
  PANM: 'the name matches, but the account is a personal account',
  BAMM: 'the name is a close match, and the account is a business account',
  PAMM: 'the name is a close match, and the account is a personal account',
  AC01: 'the account does not exist',
  IVCR: 'the secondary identification (for example a roll number) is missing or wrong',
  ACNS: 'the account does not take part in Confirmation of Payee',
  OPTO: 'the account holder opted out of Confirmation of Payee',
  CASS: 'the account was switched away (Current Account Switch Service)',
  SCNS: 'the sort code is not supported',
};
