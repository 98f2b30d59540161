import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClaimVia, submitVia } from '../../../test/support/claim-requests.ts';
import { assertMatchesSchema } from '../../harness/assert-schema.ts';
import { type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;
const advance = (body: Record<string, unknown>) => rt.call('POST', '/v1/simulator/clock/advance', body);

/** Creates and submits a claim, lets the validation step run, answers the submission as read. */
async function validated(over: Record<string, unknown>) {
  const claim = await createClaimVia(rt, over);
  const sub = await submitVia(rt, claim.id);
  expect(sub.attributes.status).toBe('validation_pending');
  await advance({ hours: 1 });
  const read = await json(await rt.call('GET', `/v1/transaction/claims/${claim.id}/submissions/${sub.id}`));
  assertMatchesSchema('claim-submission-single', read);
  return { claim, submission: read.data };
}

describe('the scheme rules, checked at the validation step', () => {
  // Each is accepted at creation (Form3's model allows it) and fails validation naming its rule.
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      'a reference without DDIC',
      { reference: 'ABC123' },
      'reference must be DDIC followed by 2 to 14 letters or digits',
    ],
    ['a reference too long', { reference: 'DDIC123456789012345' }, 'reference must be DDIC'],
    ['another scheme', { payment_scheme: 'FPS' }, 'payment_scheme must be BACS'],
    ['reason code 9', { reason_code: '9' }, 'reason_code must be a DDIC reason 1 to 8 (got 9)'],
    ['reason 3 without processing_date', { reason_code: '3' }, 'processing_date is required when reason_code is 3'],
    [
      'reason 7 without contact and request date',
      { reason_code: '7' },
      'contact_name is required when reason_code is 7; request_date is required when reason_code is 7',
    ],
    [
      'a sort code of 7 digits',
      { beneficiary_party: { account_number: '41426819', bank_id: '4003001' } },
      'beneficiary_party.bank_id must be a Bacs sort code of 6 digits (got 4003001)',
    ],
    [
      'an IBAN-like account number',
      { debtor_party: { account_name: 'A', account_number: 'GB29NWBK60161331926819', bank_id: '203040' } },
      'debtor_party.account_number must be a Bacs account number of 8 digits',
    ],
    [
      'three decimal places',
      { disputed_transactions: [{ amount: '1.005', date: '2026-12-01' }] },
      'disputed_transactions.0.amount must be an amount with at most 2 decimal places (got 1.005)',
    ],
    [
      'a future collection',
      { disputed_transactions: [{ amount: '1.00', date: '2026-12-22' }] },
      'disputed_transactions.0.date must not be after the scheme date 2026-12-21 (got 2026-12-22)',
    ],
    [
      'no disputed transactions',
      { disputed_transactions: [], number_of_claims: 0 },
      'disputed_transactions must have at least 1 item',
    ],
    [
      'number_of_claims not matching',
      { number_of_claims: 2 },
      'number_of_claims must equal the number of disputed_transactions: number_of_claims is 2, disputed_transactions has 1 item',
    ],
  ];
  for (const [name, over, reason] of cases) {
    it(`fails ${name} with status_reason naming the rule`, async () => {
      const { submission } = await validated(over);
      expect(submission.attributes.status).toBe('validation_failed');
      expect(submission.attributes.status_reason).toContain(reason);
    });
  }

  it('a failed submission is never released, processed, settled or reversible; the claim is listed by it', async () => {
    const { claim, submission } = await validated({ reference: 'NOT-DDIC' });
    await advance({ working_days: 15 });
    const after = await json(await rt.call('GET', `/v1/transaction/claims/${claim.id}/submissions/${submission.id}`));
    expect(after.data.attributes.status).toBe('validation_failed');
    expect(after.data.attributes.sequence_number).toBeUndefined();
    expect((await json(await rt.call('GET', '/v1/transaction/payments'))).data).toEqual([]);
    const failed = await json(
      await rt.call('GET', '/v1/transaction/claims?filter[submission.status]=validation_failed'),
    );
    expect(failed.data.map((c: any) => c.id)).toEqual([claim.id]);
    const reversal = await rt.call('POST', `/v1/transaction/claims/${claim.id}/reversals`, {
      data: {
        id: crypto.randomUUID(),
        organisation_id: claim.organisation_id,
        type: 'claim_reversals',
        attributes: { original_instruction_id: '1' },
      },
    });
    expect(reversal.status).toBe(400);
    expect((await json(reversal)).error_message).toContain('its submission is validation_failed');
  });

  it('passes a valid claim, BACS as Form3 spells it, through every status of the enum to the contra', async () => {
    const { claim, submission } = await validated({ payment_scheme: 'BACS' });
    expect(submission.attributes.status).toBe('validation_passed');
    expect(submission.attributes.status_reason).toBeUndefined();
    await advance({ working_days: 14 });
    const read = await json(await rt.call('GET', `/v1/transaction/claims/${claim.id}/submissions/${submission.id}`));
    expect(read.data.attributes.status).toBe('delivery_confirmed');
    const settled = await json(await rt.call('GET', `/v1/transaction/claims/${claim.id}`));
    assertMatchesSchema('claim-single', settled);
    const [contra] = (await json(await rt.call('GET', '/v1/transaction/payments'))).data;
    expect(settled.data.relationships.payment.data).toEqual([{ id: contra.id, type: 'payments' }]);
    expect(contra.relationships.claims.data).toEqual([{ id: claim.id, type: 'claims' }]);
  });
});
