// The scheme's rules of a claim, checked when its submission is validated on the scheme clock: a
// broken one makes the submission `validation_failed` with `status_reason` naming it. At creation
// only the JSON Schema applies (claim-create.json, a positive amount included): Form3 accepts any
// claim its model accepts.
import { isDecimalAmount, toPence } from '../payments/money.ts';
import type { ClaimAttributes } from './claim-resources.ts';

/** Fields a reason code needs beyond the common ones. */
export const REASON_REQUIREMENTS: Record<string, Array<keyof ClaimAttributes>> = {
  '3': ['processing_date'],
  '7': ['contact_name', 'request_date'],
};

/** Bacs DDIC reason codes (Form3's pattern admits 9; the scheme has no ninth reason). */
const BACS_REASONS = /^[1-8]$/;
/** A claim reference: the DDIC prefix Bacs reserves, then 2 to 14 letters or digits (18 at most). */
export const DDIC_REFERENCE = /^DDIC[A-Za-z0-9]{2,14}$/;
const SORT_CODE = /^[0-9]{6}$/;
const BACS_ACCOUNT = /^[0-9]{8}$/;
/** A service user's reference of the original Direct Debit: 18 characters at most in Bacs. */
const SU_REFERENCE_MAX = 18;

function partyRules(name: string, p: { account_number: string; bank_id: string }, out: string[]): void {
  if (!SORT_CODE.test(p.bank_id)) out.push(`${name}.bank_id must be a Bacs sort code of 6 digits (got ${p.bank_id})`);
  if (!BACS_ACCOUNT.test(p.account_number))
    out.push(`${name}.account_number must be a Bacs account number of 8 digits (got ${p.account_number})`);
}

/**
 * Every scheme rule the claim breaks, one sentence each (field, rule, value), in the order of the
 * fields. `today` is the London date of the scheme clock: no disputed collection lies after it.
 */
export function schemeRuleViolations(a: ClaimAttributes, today: string): string[] {
  const out: string[] = [];
  if (String(a.payment_scheme).toLowerCase() !== 'bacs')
    out.push(`payment_scheme must be BACS: DDICs are a Bacs service (got ${a.payment_scheme})`);
  if (!DDIC_REFERENCE.test(a.reference))
    out.push(`reference must be DDIC followed by 2 to 14 letters or digits (got ${JSON.stringify(a.reference)})`);
  if (!BACS_REASONS.test(a.reason_code)) out.push(`reason_code must be a DDIC reason 1 to 8 (got ${a.reason_code})`);
  for (const field of REASON_REQUIREMENTS[a.reason_code] ?? []) {
    if (a[field] === undefined || a[field] === '')
      out.push(`${field} is required when reason_code is ${a.reason_code}`);
  }
  partyRules('beneficiary_party', a.beneficiary_party, out);
  partyRules('debtor_party', a.debtor_party, out);
  const suReference = a.original_instruction.reference;
  if (suReference.length < 1 || suReference.length > SU_REFERENCE_MAX)
    out.push(
      `original_instruction.reference must have 1 to ${SU_REFERENCE_MAX} characters (got ${suReference.length})`,
    );
  const txs = a.disputed_transactions;
  if (txs.length === 0) out.push('disputed_transactions must have at least 1 item');
  txs.forEach((t, i) => {
    if (!isDecimalAmount(t.amount))
      out.push(`disputed_transactions.${i}.amount must be an amount with at most 2 decimal places (got ${t.amount})`);
    if (t.date > today)
      out.push(`disputed_transactions.${i}.date must not be after the scheme date ${today} (got ${t.date})`);
  });
  if (txs.length > 0 && a.number_of_claims !== txs.length) {
    out.push(
      `number_of_claims must equal the number of disputed_transactions: number_of_claims is ${a.number_of_claims}, disputed_transactions has ${txs.length} item${txs.length === 1 ? '' : 's'}`,
    );
  }
  return out;
}

/** The sum of the disputed amounts of one claim, in pence (a claim that passed validation). */
export function claimPence(a: ClaimAttributes): bigint {
  let total = 0n;
  for (const t of a.disputed_transactions) total += toPence(t.amount);
  return total;
}
