import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childRequest, claimRequest, createClaimVia, submitVia } from '../../../test/support/claim-requests.ts';
import { assertMatchesSchema } from '../../harness/assert-schema.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

const ORG = NORTHWIND.organisation_id;

const claimBody = (over: Record<string, unknown> = {}, id?: string, organisation_id = ORG) =>
  claimRequest(organisation_id, over, id);
const subBody = (type = 'claim_submissions', id?: string) => childRequest(ORG, type, id);

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;
const createClaim = (over: Record<string, unknown> = {}) => createClaimVia(rt, over);
const submit = (claimId: string) => submitVia(rt, claimId);
const advance = (working_days: number) => rt.call('POST', '/v1/simulator/clock/advance', { working_days });

describe('POST /v1/transaction/claims', () => {
  it('creates a claim at version 0, echoing payment_scheme as the client spelt it', async () => {
    const res = await rt.call('POST', '/v1/transaction/claims', claimBody());
    expect(res.status).toBe(201);
    const body = await json(res);
    assertMatchesSchema('claim-single', body);
    expect(body.data).toMatchObject({
      version: 0,
      created_on: '2026-12-21T09:00:00.000Z',
      attributes: { payment_scheme: 'bacs' },
    });
    // Form3's enum value, as its SDK sends it, comes back as sent.
    const sdk = await json(await rt.call('POST', '/v1/transaction/claims', claimBody({ payment_scheme: 'BACS' })));
    expect(sdk.data.attributes.payment_scheme).toBe('BACS');
    expect(body.links.self).toBe(`/v1/transaction/claims/${body.data.id}`);
  });

  // What Form3's swagger refuses: its patterns and types, and amounts that are not positive.
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['clearing_id of 5 digits', { clearing_id: '12345' }, "clearing_id in body should match '^[0-9]{6}$'"],
    ['reason code 0', { reason_code: '0' }, "reason_code in body should match '^[1-9]$'"],
    [
      'a lower-case account number',
      { beneficiary_party: { account_number: 'gb123456', bank_id: '400300' } },
      "beneficiary_party.account_number in body should match '^[A-Z0-9]{6,34}$'",
    ],
    [
      'an account number of 5 characters',
      { debtor_party: { account_name: 'A', account_number: '87654', bank_id: '203040' } },
      "debtor_party.account_number in body should match '^[A-Z0-9]{6,34}$'",
    ],
    [
      'a negative amount',
      { disputed_transactions: [{ amount: '-1.00', date: '2026-12-01' }] },
      "disputed_transactions.0.amount in body should match '^[0-9.]{0,20}$'",
    ],
    [
      'a zero amount',
      { disputed_transactions: [{ amount: '0.00', date: '2026-12-01' }] },
      'disputed_transactions.0.amount in body should be a number greater than 0: "0.00"',
    ],
    [
      'an amount of two points',
      { disputed_transactions: [{ amount: '1.2.3', date: '2026-12-01' }] },
      'disputed_transactions.0.amount in body should be a number greater than 0: "1.2.3"',
    ],
    [
      'a numeric amount',
      { disputed_transactions: [{ amount: 10, date: '2026-12-01' }] },
      'disputed_transactions.0.amount in body must be of type string',
    ],
    [
      '31 February',
      { disputed_transactions: [{ amount: '1.00', date: '2026-02-31' }] },
      'disputed_transactions.0.date in body must be of type date',
    ],
    ['a missing debtor_party', { debtor_party: undefined }, 'debtor_party in body is required'],
    ['a missing reference', { reference: undefined }, 'reference in body is required'],
  ];
  for (const [name, over, message] of cases) {
    it(`400s ${name}`, async () => {
      const res = await rt.call('POST', '/v1/transaction/claims', claimBody(over));
      expect(res.status).toBe(400);
      const body = await json(res);
      assertMatchesSchema('error', body);
      expect(body.error_message).toContain(message);
    });
  }

  it('names missing attributes bare, one line per rule, nested as go-swagger nests them', async () => {
    const res = await rt.call('POST', '/v1/transaction/claims', claimBody({ clearing_id: undefined, colour: 'red' }));
    expect((await json(res)).error_message).toBe(
      'validation failure list:\nvalidation failure list:\nvalidation failure list:\nclearing_id in body is required',
    );
  });

  it('ignores an undeclared attribute, as Form3 does, and refuses it with --strict', async () => {
    const created = await rt.call('POST', '/v1/transaction/claims', claimBody({ colour: 'red' }));
    expect(created.status).toBe(201);
    expect((await json(created)).data.attributes.colour).toBeUndefined();
    const strict = await testRuntime({ strict: true });
    try {
      const res = await strict.call('POST', '/v1/transaction/claims', claimBody({ colour: 'red' }));
      expect(res.status).toBe(400);
      expect((await json(res)).error_message).toContain('colour in body is not allowed');
    } finally {
      await strict.close();
    }
  });

  it('accepts reason 3 and 7 with their extra fields', async () => {
    await createClaim({ reason_code: '3', processing_date: '2026-11-30' });
    await createClaim({ reason_code: '7', contact_name: 'J Smith', request_date: '2026-12-02' });
  });

  it("accepts what Form3's model accepts and the scheme refuses later (claims-validation.test.ts)", async () => {
    await createClaim({ reference: 'ANY REFERENCE', reason_code: '9', payment_scheme: 'FPS' });
    await createClaim({ disputed_transactions: [{ amount: '1.005', date: '2030-01-01' }], number_of_claims: 3 });
  });

  it('400s bodies of the wrong shape without a 500', async () => {
    for (const body of [
      [],
      { data: [] },
      { data: { attributes: [] } },
      'null',
      '"text"',
      { data: { ...claimBody().data, attributes: null } },
    ]) {
      const res = await rt.call('POST', '/v1/transaction/claims', body);
      expect(res.status).toBe(400);
    }
  });

  it('409s a duplicate id, 403s another organisation, 404s other tenants', async () => {
    const id = randomUUID();
    expect((await rt.call('POST', '/v1/transaction/claims', claimBody({}, id))).status).toBe(201);
    expect((await rt.call('POST', '/v1/transaction/claims', claimBody({}, id))).status).toBe(409);
    expect(
      (await rt.call('POST', '/v1/transaction/claims', claimBody({}, randomUUID(), HARBOUR.organisation_id))).status,
    ).toBe(403);
    expect((await rt.call('GET', `/v1/transaction/claims/${id}`, undefined, { client: HARBOUR })).status).toBe(404);
    expect((await rt.call('GET', '/v1/transaction/claims/not-a-uuid')).status).toBe(400);
  });
});

describe('submissions', () => {
  it('201 validation_pending with the dates of the timeline; the claim lists it', async () => {
    const claim = await createClaim();
    const res = await rt.call('POST', `/v1/transaction/claims/${claim.id}/submissions`, subBody());
    expect(res.status).toBe(201);
    const body = await json(res);
    assertMatchesSchema('claim-submission-single', body);
    expect(body.data.attributes).toMatchObject({
      status: 'validation_pending',
      submission_date: '2026-12-21',
      settlement_date: '2027-01-13',
    });
    expect(body.links.self).toBe(`/v1/transaction/claims/${claim.id}/submissions/${body.data.id}`);
    const got = await json(await rt.call('GET', `/v1/transaction/claims/${claim.id}`));
    // The submission itself, as go-form3's ClaimRelationships has it ([]*ClaimSubmission).
    expect(got.data.relationships.claim_submission.data).toEqual([
      {
        id: body.data.id,
        type: 'claim_submissions',
        version: 0,
        organisation_id: claim.organisation_id,
        attributes: body.data.attributes,
      },
    ]);
    expect(body.data.relationships.claim.data[0]).toMatchObject({
      id: claim.id,
      version: 1,
      organisation_id: claim.organisation_id,
      attributes: got.data.attributes,
    });
    expect(got.data.version).toBe(1);
    expect((await rt.call('GET', body.links.self)).status).toBe(200);
  });

  it('400s a second submission (the swagger has no 409), 404s an unknown claim, 400s a body of the wrong type', async () => {
    const claim = await createClaim();
    await submit(claim.id);
    const again = await rt.call('POST', `/v1/transaction/claims/${claim.id}/submissions`, subBody());
    expect(again.status).toBe(400);
    expect((await json(again)).error_message).toContain('has already been submitted');
    const unknown = randomUUID();
    const missing = await rt.call('POST', `/v1/transaction/claims/${unknown}/submissions`, subBody());
    expect(missing.status).toBe(404);
    expect((await json(missing)).error_message).toBe(`record ${unknown} does not exist`);
    const wrong = await rt.call('POST', `/v1/transaction/claims/${claim.id}/submissions`, subBody('claims'));
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).error_message).toContain('type in body should be equal to "claim_submissions"');
  });
});

describe('reversals over HTTP', () => {
  it('refuses before processing (400), a wrong sequence number (400), then reverses and skips settlement', async () => {
    const claim = await createClaim();
    const sub = await submit(claim.id);
    const base = `/v1/transaction/claims/${claim.id}/reversals`;
    const early = await rt.call('POST', base, {
      data: {
        id: randomUUID(),
        organisation_id: ORG,
        type: 'claim_reversals',
        attributes: { original_instruction_id: '1' },
      },
    });
    expect(early.status).toBe(400);
    expect((await json(early)).error_message).toContain('cannot be reversed yet');
    await advance(1);
    const seq = (await json(await rt.call('GET', `/v1/transaction/claims/${claim.id}/submissions/${sub.id}`))).data
      .attributes.sequence_number;
    const wrong = await rt.call('POST', base, {
      data: {
        id: randomUUID(),
        organisation_id: ORG,
        type: 'claim_reversals',
        attributes: { original_instruction_id: '42' },
      },
    });
    expect(wrong.status).toBe(400);
    const ok = await rt.call('POST', base, {
      data: {
        id: randomUUID(),
        organisation_id: ORG,
        type: 'claim_reversals',
        attributes: { original_instruction_id: seq },
      },
    });
    expect(ok.status).toBe(201);
    const reversal = await json(ok);
    assertMatchesSchema('claim-reversal-single', reversal);
    const rs = await rt.call('POST', `${base}/${reversal.data.id}/submissions`, subBody('claim_reversal_submissions'));
    expect(rs.status).toBe(201);
    const rsBody = await json(rs);
    assertMatchesSchema('claim-reversal-submission-single', rsBody);
    expect(rsBody.data.attributes.status).toBe('accepted');
    await advance(1);
    const processed = await json(await rt.call('GET', rsBody.links.self));
    expect(processed.data.attributes.status).toBe('delivery_confirmed');
    assertMatchesSchema('claim-reversal-single', await json(await rt.call('GET', reversal.links.self)));
    await advance(13);
    const payments = await json(await rt.call('GET', '/v1/transaction/payments'));
    expect(payments.data).toEqual([]);
  });

  it('404s a reversal under another claim', async () => {
    const res = await rt.call('GET', `/v1/transaction/claims/${randomUUID()}/reversals/${randomUUID()}`);
    expect(res.status).toBe(404);
    expect((await rt.call('GET', `/v1/transaction/claims/${randomUUID()}/reversals/nope`)).status).toBe(400);
  });
});
