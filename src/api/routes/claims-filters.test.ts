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
const ids = async (query: string) => {
  const res = await rt.call('GET', `/v1/transaction/claims?${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  const body = await json(res);
  assertMatchesSchema('claim-list', body);
  return body.data.map((c: any) => c.id);
};

describe("every filter of Form3's claim list", () => {
  it('filters by attributes, nested parties and the original instruction', async () => {
    const a = await createClaimVia(rt, {
      reference: 'DDICAA',
      payment_scheme: 'BACS',
      contact_name: 'J Smith',
      debtor_party: { account_name: 'A', account_number: '11111111', bank_id: '111111' },
      original_instruction: { clearing_id: '654321', reference: 'GAS-1' },
    });
    const b = await createClaimVia(rt, { reference: 'DDICBB', reason_code: '4' });
    expect(await ids('filter[reference]=DDICBB')).toEqual([b.id]);
    expect(await ids('filter[payment_scheme]=bacs')).toEqual([a.id, b.id]);
    expect(await ids('filter[reason_code]=4')).toEqual([b.id]);
    expect(await ids('filter[contact_name]=J%20Smith')).toEqual([a.id]);
    expect(await ids('filter[debtor_party.account_number]=11111111')).toEqual([a.id]);
    expect(await ids('filter[debtor_party.bank_id]=203040')).toEqual([b.id]);
    expect(await ids('filter[beneficiary_party.account_number]=41426819')).toEqual([a.id, b.id]);
    expect(await ids('filter[beneficiary_party.bank_id]=400300')).toEqual([a.id, b.id]);
    expect(await ids('filter[original_instruction.reference]=GAS-1')).toEqual([a.id]);
    expect(await ids(`filter[organisation_id]=${a.organisation_id}`)).toEqual([a.id, b.id]);
    // go-form3 joins its organisation_id list with commas.
    expect(await ids(`filter[organisation_id]=${crypto.randomUUID()},${a.organisation_id}`)).toEqual([a.id, b.id]);
    expect(await ids('filter[clearing_id]=999999')).toEqual([]);
  });

  it('filters by the submission status and date, and the reversal status and date', async () => {
    const early = await createClaimVia(rt, { reference: 'DDICEARLY' });
    await submitVia(rt, early.id); // D0 2026-12-21
    expect(await ids('filter[submission.status]=validation_pending')).toEqual([early.id]);
    await advance({ working_days: 1 }); // 2026-12-22: early is processed
    const late = await createClaimVia(rt, { reference: 'DDICLATE' });
    await submitVia(rt, late.id); // D0 2026-12-22
    const unsent = await createClaimVia(rt, { reference: 'DDICNONE' });
    expect(await ids('filter[submission.status]=queued_for_delivery')).toEqual([early.id]);
    expect(await ids('filter[submission.submission_date_from]=2026-12-22')).toEqual([late.id]);
    expect(await ids('filter[submission.submission_date_to]=2026-12-21')).toEqual([early.id]);
    // go-form3 sends these bounds as date-times (strfmt.DateTime): each counts as its UTC date.
    expect(await ids('filter[submission.submission_date_from]=2026-12-22T00:00:00.000Z')).toEqual([late.id]);
    expect(
      await ids('filter[submission.submission_date_from]=2026-12-21&filter[submission.submission_date_to]=2026-12-22'),
    ).toEqual([early.id, late.id]);

    const seq = (await json(await rt.call('GET', `/v1/transaction/claims/${early.id}`))).data.relationships
      .claim_submission.data[0].id;
    const sub = await json(await rt.call('GET', `/v1/transaction/claims/${early.id}/submissions/${seq}`));
    const reversal = await json(
      await rt.call('POST', `/v1/transaction/claims/${early.id}/reversals`, {
        data: {
          id: crypto.randomUUID(),
          organisation_id: early.organisation_id,
          type: 'claim_reversals',
          attributes: { original_instruction_id: sub.data.attributes.sequence_number },
        },
      }),
    );
    await rt.call('POST', `/v1/transaction/claims/${early.id}/reversals/${reversal.data.id}/submissions`, {
      data: { id: crypto.randomUUID(), organisation_id: early.organisation_id, type: 'claim_reversal_submissions' },
    });
    expect(await ids('filter[reversal.status]=accepted')).toEqual([early.id]);
    expect(await ids('filter[reversal.submission_date_from]=2026-12-22')).toEqual([early.id]);
    expect(await ids('filter[reversal.submission_date_to]=2026-12-21')).toEqual([]);
    expect(await ids('filter[reference]=DDICNONE')).toEqual([unsent.id]);
  });

  it('400s a malformed date bound and an unknown filter, naming the filter', async () => {
    const bad = await rt.call('GET', '/v1/transaction/claims?filter[submission.submission_date_from]=21-12-2026');
    expect(bad.status).toBe(400);
    expect((await json(bad)).error_message).toContain(
      'filter[submission.submission_date_from] must be a date (YYYY-MM-DD) or a date-time (RFC 3339)',
    );
    const unknown = await rt.call('GET', '/v1/transaction/claims?filter[colour]=red');
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).error_message).toContain('filter[colour] is not a supported filter');
  });
});
