// The contra record: the inbound Bacs credit that settles a day's DDICs of one organisation.
import { formatPence } from '../payments/money.ts';
import type { InboundPayment, PaymentParty } from '../payments/payments.ts';
import { CLAIM_TYPE, type ClaimAttributes } from './claim-resources.ts';
import { claimPence } from './claim-rules.ts';

/** The two marks of a contra: a Bacs Credit with this sub type, and a reference naming the settlement. */
export const CONTRA_SUB_TYPE = 'DDICSettlement';

/** `DDIC SETTLEMENT 20261221`: the claims' submission day (D0) the contra settles. */
export function contraReference(submissionDate: string): string {
  return `DDIC SETTLEMENT ${submissionDate.replaceAll('-', '')}`;
}

export interface ContraInput {
  organisation_id: string;
  /** D0 of the settled claims. */
  submission_date: string;
  /** D0+14: the processing date of the contra. */
  settlement_date: string;
  /** A running number of contras, zero-padded (used for the scheme identifiers). */
  contra_number: string;
  /** The claims settled, in submission order (at least one). */
  claims: Array<{ id: string; attributes: ClaimAttributes }>;
}

function party(account: { account_number: string; bank_id: string; account_name?: string }): PaymentParty {
  return {
    ...(account.account_name !== undefined ? { account_name: account.account_name } : {}),
    account_number: account.account_number,
    account_number_code: 'BBAN',
    account_with: { bank_address: null, bank_id: account.bank_id, bank_id_code: 'GBDSC' },
    address: null,
  };
}

/**
 * The Payment of a contra. Amount: the exact sum (integer pence) of every disputed transaction of
 * the claims. The paying bank is credited (beneficiary_party: the claim's beneficiary account) and
 * the originator debited (debtor_party: the claim's debtor party). A cumulative contra of claims with
 * different parties names those of its first claim; relationships.claims lists every claim.
 */
export function contraPayment(input: ContraInput): InboundPayment {
  if (input.claims.length === 0) throw new Error('a contra settles at least one claim');
  const first = input.claims[0]!.attributes;
  let total = 0n;
  for (const c of input.claims) total += claimPence(c.attributes);
  const compactSettlement = input.settlement_date.replaceAll('-', '');
  return {
    organisation_id: input.organisation_id,
    attributes: {
      amount: formatPence(total),
      currency: 'GBP',
      beneficiary_party: party(first.beneficiary_party),
      debtor_party: party(first.debtor_party),
      clearing_id: first.original_instruction.clearing_id,
      numeric_reference: input.contra_number,
      scheme_transaction_id: `DDIC${compactSettlement}${input.contra_number}`,
      unique_scheme_id: `BACSDDIC${compactSettlement}${input.contra_number}`,
      payment_scheme: 'Bacs',
      processing_date: input.settlement_date,
      scheme_processing_date: input.settlement_date,
      reference: contraReference(input.submission_date),
      scheme_payment_type: 'Credit',
      scheme_payment_sub_type: CONTRA_SUB_TYPE,
    },
    relationships: { claims: { data: input.claims.map((c) => ({ id: c.id, type: CLAIM_TYPE })) } },
  };
}
