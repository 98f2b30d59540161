// A valid Direct Debit Indemnity Claim's attributes: what the claims features and the unit tests file.
import type { ClaimAttributes } from '../sim/claims/claim-resources.ts';

/** A valid reason-1 claim disputing the given amounts, collected on `collected` (default 2026-12-01). */
export function claimAttributes(
  amounts: string[] = ['10.00'],
  overrides: Partial<ClaimAttributes> = {},
  collected = '2026-12-01',
): ClaimAttributes {
  return {
    payment_scheme: 'Bacs',
    clearing_id: '123456',
    reference: 'DDIC0001',
    reason_code: '1',
    number_of_claims: amounts.length,
    beneficiary_party: { account_number: '41426819', bank_id: '400300' },
    debtor_party: { account_name: 'Acme Utilities', account_number: '87654321', bank_id: '203040' },
    original_instruction: { clearing_id: '654321', reference: 'ACME-000123' },
    disputed_transactions: amounts.map((amount) => ({ amount, date: collected })),
    ...overrides,
  };
}
