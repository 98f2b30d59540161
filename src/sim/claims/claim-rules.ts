// Rules of a claim that span several fields (the JSON Schema checks each field on its own).
import { dateProblem, isIsoDate, SUPPORTED_RANGE } from '../../clock/dates.ts';

/** The rule a date field breaks, or undefined: malformed, or outside the supported dates. */
function dateRule(v: unknown): string | undefined {
  if (typeof v === 'string' && isIsoDate(v)) return undefined;
  const problem = dateProblem(String(v));
  return problem?.includes(SUPPORTED_RANGE) ? problem : 'must be a valid date (YYYY-MM-DD)';
}

import { invalid } from '../errors.ts';
import { isDecimalAmount, toPence } from '../payments/money.ts';
import type { ClaimAttributes } from './claim-resources.ts';

/** Fields a reason code needs beyond the common ones. */
export const REASON_REQUIREMENTS: Record<string, Array<keyof ClaimAttributes>> = {
  '3': ['processing_date'],
  '7': ['contact_name', 'request_date'],
};

/**
 * Every broken cross-field rule, one message each (field, rule, and the values involved).
 * `today` is the London date of the scheme clock: no disputed collection lies in the future.
 */
export function claimRuleViolations(a: ClaimAttributes, today: string): string[] {
  const out: string[] = [];
  if (String(a.payment_scheme).toLowerCase() !== 'bacs') out.push('payment_scheme in body should be Bacs (any case)');
  if (!/^[1-8]$/.test(String(a.reason_code))) out.push(`reason_code in body should be one of [1 2 3 4 5 6 7 8]`);
  for (const field of REASON_REQUIREMENTS[String(a.reason_code)] ?? []) {
    if (a[field] === undefined || a[field] === '')
      out.push(`${field} in body is required when reason_code is ${a.reason_code}`);
  }
  for (const field of ['processing_date', 'request_date'] as const) {
    const v = a[field];
    const rule = v === undefined ? undefined : dateRule(v);
    if (rule) out.push(`${field} in body ${rule}`);
  }
  const txs = Array.isArray(a.disputed_transactions) ? a.disputed_transactions : [];
  if (txs.length === 0) out.push('disputed_transactions in body should have at least 1 items');
  txs.forEach((t, i) => {
    if (!isDecimalAmount(String(t.amount))) {
      out.push(`disputed_transactions.${i}.amount in body should be a decimal with at most 2 decimal places`);
    } else if (toPence(t.amount) <= 0n) {
      out.push(`disputed_transactions.${i}.amount in body should be greater than 0`);
    }
    const rule = dateRule(t.date);
    if (rule) out.push(`disputed_transactions.${i}.date in body ${rule}`);
    else if (t.date > today)
      out.push(`disputed_transactions.${i}.date in body should not be after the scheme date ${today}`);
  });
  if (txs.length > 0 && a.number_of_claims !== txs.length) {
    out.push(
      `number_of_claims in body should equal the number of disputed_transactions: number_of_claims is ${a.number_of_claims}, disputed_transactions has ${txs.length} item${txs.length === 1 ? '' : 's'}`,
    );
  }
  return out;
}

/** Throws an `invalid` error listing every violation, as the schema validation does. */
export function assertClaimRules(a: ClaimAttributes, today: string): void {
  const violations = claimRuleViolations(a, today);
  if (violations.length > 0) throw invalid(`validation failure list: ${violations.join('; ')}`);
}

/** The sum of the disputed amounts of one claim, in pence. */
export function claimPence(a: ClaimAttributes): bigint {
  let total = 0n;
  for (const t of a.disputed_transactions) total += toPence(t.amount);
  return total;
}
