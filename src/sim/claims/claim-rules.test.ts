import { describe, expect, it } from 'vitest';
import { claimAttributes } from '../../harness/claim-attributes.ts';
import { schemeRuleViolations } from './claim-rules.ts';

const today = '2026-12-21';

describe('the scheme rules checked at validation', () => {
  it('passes a valid claim', () => {
    expect(schemeRuleViolations(claimAttributes(['1.00', '2.5']), today)).toEqual([]);
  });

  it('needs processing_date for reason 3 and contact_name and request_date for reason 7', () => {
    expect(schemeRuleViolations(claimAttributes(['1.00'], { reason_code: '3' }), today)).toEqual([
      'processing_date is required when reason_code is 3',
    ]);
    expect(
      schemeRuleViolations(claimAttributes(['1.00'], { reason_code: '7', contact_name: 'J Smith' }), today),
    ).toEqual(['request_date is required when reason_code is 7']);
    const complete = claimAttributes(['1.00'], {
      reason_code: '7',
      contact_name: 'J Smith',
      request_date: '2026-12-01',
    });
    expect(schemeRuleViolations(complete, today)).toEqual([]);
  });

  it('names each rule a claim Form3 accepted breaks in the scheme', () => {
    const a = claimAttributes(['1.005', '1.00']);
    a.disputed_transactions[1]!.date = '2026-12-22';
    a.number_of_claims = 3;
    const broken = {
      ...a,
      reason_code: '9',
      payment_scheme: 'FPS',
      reference: 'ABC123',
      beneficiary_party: { account_number: 'GB12ABCD', bank_id: '40030' },
      original_instruction: { clearing_id: '654321', reference: 'X'.repeat(19) },
    };
    expect(schemeRuleViolations(broken, today)).toEqual([
      'payment_scheme must be BACS: DDICs are a Bacs service (got FPS)',
      'reference must be DDIC followed by 2 to 14 letters or digits (got "ABC123")',
      'reason_code must be a DDIC reason 1 to 8 (got 9)',
      'beneficiary_party.bank_id must be a Bacs sort code of 6 digits (got 40030)',
      'beneficiary_party.account_number must be a Bacs account number of 8 digits (got GB12ABCD)',
      'original_instruction.reference must have 1 to 18 characters (got 19)',
      'disputed_transactions.0.amount must be an amount with at most 2 decimal places (got 1.005)',
      'disputed_transactions.1.date must not be after the scheme date 2026-12-21 (got 2026-12-22)',
      'number_of_claims must equal the number of disputed_transactions: number_of_claims is 3, disputed_transactions has 2 items',
    ]);
  });

  it('accepts BACS in any case and needs at least one disputed transaction', () => {
    expect(schemeRuleViolations(claimAttributes(['1.00'], { payment_scheme: 'BACS' }), today)).toEqual([]);
    expect(schemeRuleViolations(claimAttributes([], { number_of_claims: 0 }), today)).toEqual([
      'disputed_transactions must have at least 1 item',
    ]);
  });
});
