// A name verification asked through Form3's API has to reach the payee's bank: where it goes, and the
// Open Banking request it is sent as.
import type { VerificationRequest } from './decide.ts';
import type { NameVerificationAttributes } from './name-verification-records.ts';
import type { Participant } from './participant.ts';
import type { Participants } from './participants.ts';

/** Where a name verification goes, decided from what the requester sent. */
export type PayeeRoute =
  /** The participant that serves the payee's sort code, and the request its endpoint is sent. */
  | { kind: 'participant'; participant: Participant; request: VerificationRequest }
  /** A sort code no participant serves: answered SCNS without a responder. */
  | { kind: 'unknown_bank'; sortCode: string }
  /** A request Confirmation of Payee cannot carry: it fails delivery, saying why. */
  | { kind: 'not_routable'; reason: string };

/**
 * Routes a name verification as Form3's lookup service does (finds the payee's bank by its sort
 * code, then asks its Confirmation of Payee endpoint), over fixtures/participants.json. The Open
 * Banking request is built from the attributes as sent: the scheme's own rules on it (a 14-digit
 * Identification, a Name of at most 140 characters) are the responder's to apply, so a request
 * that breaks them fails delivery with the responder's refusal, as it would in the scheme.
 */
export function routePayee(participants: Participants, a: NameVerificationAttributes): PayeeRoute {
  if (a.verification_scheme === 'VoP')
    return {
      kind: 'not_routable',
      reason: 'verification_scheme VoP (Verification of Payee, the euro scheme) is not simulated: only CoP is routed',
    };
  if (a.bank_id_code !== 'GBDSC')
    return {
      kind: 'not_routable',
      reason: `Confirmation of Payee finds the payee's bank by UK sort code: bank_id_code must be GBDSC, not ${a.bank_id_code}`,
    };
  if (a.account_number_code !== 'BBAN')
    return {
      kind: 'not_routable',
      reason: `Confirmation of Payee identifies the account by sort code and account number: account_number_code must be BBAN, not ${a.account_number_code}`,
    };
  const participant = participants.owning(a.bank_id);
  if (!participant) return { kind: 'unknown_bank', sortCode: a.bank_id };
  return { kind: 'participant', participant, request: verificationRequestOf(a) };
}

/**
 * The Open Banking request for a name verification: AccountType from account_classification
 * (absent: Personal, the API material's default for an account), Identification the sort code then
 * the account number, Name the name's parts joined by a space (the model's `name` is "title, first
 * name, last name" in parts), SecondaryIdentification when one is given.
 */
export function verificationRequestOf(a: NameVerificationAttributes): VerificationRequest {
  return {
    accountType: a.account_classification === 'business' ? 'Business' : 'Personal',
    identification: `${a.bank_id}${a.account_number}`,
    name: a.name.join(' '),
    secondaryIdentification: a.secondary_identification || undefined,
  };
}
