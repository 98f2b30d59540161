import { describe, expect, it } from 'vitest';
import { claimAttributes } from '../../../test/support/claims-harness.ts';
import { claimRuleViolations } from './claim-rules.ts';

const today = '2026-12-21';

describe('claim rules', () => {
  it('accepts a valid claim', () => {
    expect(claimRuleViolations(claimAttributes(['1.00', '2.5']), today)).toEqual([]);
  });

  it('needs processing_date for reason 3 and contact_name and request_date for reason 7', () => {
    expect(claimRuleViolations(claimAttributes(['1.00'], { reason_code: '3' }), today)).toEqual([
      'processing_date in body is required when reason_code is 3',
    ]);
    expect(
      claimRuleViolations(claimAttributes(['1.00'], { reason_code: '7', contact_name: 'J Smith' }), today),
    ).toEqual(['request_date in body is required when reason_code is 7']);
    expect(
      claimRuleViolations(
        claimAttributes(['1.00'], { reason_code: '7', contact_name: 'J Smith', request_date: '2026-12-01' }),
        today,
      ),
    ).toEqual([]);
  });

  it('refuses zero amounts, bad dates, future collections and an inconsistent number_of_claims', () => {
    const a = claimAttributes(['0.00', '1.00']);
    a.disputed_transactions[1]!.date = '2026-12-22';
    a.number_of_claims = 3;
    expect(claimRuleViolations({ ...a, reason_code: '9', payment_scheme: 'FPS' as 'Bacs' }, today)).toEqual([
      'payment_scheme in body should be Bacs (any case)',
      'reason_code in body should be one of [1 2 3 4 5 6 7 8]',
      'disputed_transactions.0.amount in body should be greater than 0',
      'disputed_transactions.1.date in body should not be after the scheme date 2026-12-21',
      'number_of_claims in body should equal the number of disputed_transactions: number_of_claims is 3, disputed_transactions has 2 items',
    ]);
    expect(claimRuleViolations(claimAttributes(['1.00'], { processing_date: '2026-02-30' }), today)).toEqual([
      'processing_date in body must be a valid date (YYYY-MM-DD)',
    ]);
  });
});
