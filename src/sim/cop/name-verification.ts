// The responder side of Confirmation of Payee in the domain: which account a participant holds for the
// request, and the answer it gives.
import { type Accounts, inBehaviour } from '../accounts.ts';
import { decide, type VerificationReport, type VerificationRequest } from './decide.ts';
import type { NameMatcher } from './match.ts';
import type { Participants } from './participants.ts';

/**
 * Confirmation of Payee as a participant answers it: the account is looked up (indexed by sort
 * code and account number) inside the participant's organisation, whoever asks.
 */
export class NameVerification {
  readonly participants: Participants;
  readonly #accounts: Accounts;
  /** This simulator's matcher: its own thresholds, its own kept results. */
  readonly #matcher: NameMatcher;

  constructor(participants: Participants, accounts: Accounts, matcher: NameMatcher) {
    this.participants = participants;
    this.#accounts = accounts;
    this.#matcher = matcher;
  }

  /** Throws not_found for an unknown participant. */
  matchName(openBankingId: string, request: VerificationRequest): VerificationReport {
    const participant = this.participants.get(openBankingId);
    const sortCode = request.identification.slice(0, 6);
    const accountNumber = request.identification.slice(6);
    const served = this.participants.serves(openBankingId, sortCode);
    const account = served
      ? this.#accounts.findBySortCodeAndNumber(participant.organisation_id, sortCode, accountNumber)
      : undefined;
    return decide({
      served,
      account: account ? inBehaviour(account.attributes) : undefined,
      request,
      matcher: this.#matcher,
    });
  }
}
