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
const list = async (path: string, schema: string) => {
  const res = await rt.call('GET', path);
  expect(res.status, await res.clone().text()).toBe(200);
  const body = await json(res);
  assertMatchesSchema(schema, body);
  return body.data as any[];
};

describe("the payment list's filters, as Form3's swagger names them", () => {
  it("finds the contras by processing date, admission, amount, scheme in any case and the contra's marks", async () => {
    const first = await createClaimVia(rt, { disputed_transactions: [{ amount: '10.00', date: '2026-12-01' }] });
    await submitVia(rt, first.id); // D0 2026-12-21, settles 2027-01-13
    await rt.call('POST', '/v1/simulator/clock/advance', { working_days: 1 });
    const second = await createClaimVia(rt, { disputed_transactions: [{ amount: '20.5', date: '2026-12-01' }] });
    await submitVia(rt, second.id); // D0 2026-12-22, settles 2027-01-14
    await rt.call('POST', '/v1/simulator/clock/advance', { working_days: 14 });
    const all = await list('/v1/transaction/payments', 'payment-list');
    expect(all.map((p) => p.attributes.processing_date)).toEqual(['2027-01-13', '2027-01-14']);
    const q = (query: string) => list(`/v1/transaction/payments?${query}`, 'payment-list');
    expect(await q('filter[processing_date_from]=2027-01-14')).toEqual([all[1]]);
    expect(await q('filter[processing_date_to]=2027-01-13')).toEqual([all[0]]);
    expect(await q('filter[admission.status]=confirmed')).toHaveLength(2);
    expect(await q('filter[admission.status]=failed')).toEqual([]);
    expect(
      await q('filter[admission.admission_date_from]=2027-01-14&filter[admission.admission_date_to]=2027-01-14'),
    ).toEqual([all[1]]);
    expect(await q('filter[amount]=20.5')).toEqual([all[1]]);
    expect(await q('filter[payment_scheme]=BACS')).toHaveLength(2);
    expect(await q('filter[scheme_payment_sub_type]=DDICSettlement')).toHaveLength(2);
    expect(await q('filter[reference]=DDIC%20SETTLEMENT%2020261222')).toEqual([all[1]]);
    expect(await q(`filter[unique_scheme_id]=${all[0].attributes.unique_scheme_id}`)).toEqual([all[0]]);
    expect(await q('filter[beneficiary_party.bank_id]=400300')).toHaveLength(2);
    const bad = await rt.call('GET', '/v1/transaction/payments?filter[amount]=ten');
    expect(bad.status).toBe(400);
    expect((await json(bad)).error_message).toContain('filter[amount] must be a decimal amount');
  });
});

describe("the report list's filters", () => {
  it('filters by description and by created and modified instants (exclusive)', async () => {
    await rt.call('POST', '/v1/simulator/reports', { report_type: 'BACS_ARUDD' });
    await rt.call('POST', '/v1/simulator/clock/advance', { hours: 2 });
    await rt.call('POST', '/v1/simulator/reports', { report_type: 'BACS_ADDACS' });
    const all = await list('/v1/notification/reports', 'report-list');
    const arudd = all.find((r) => r.attributes.report_type === 'BACS_ARUDD');
    const addacs = all.find((r) => r.attributes.report_type === 'BACS_ADDACS');
    const q = (query: string) => list(`/v1/notification/reports?${query}`, 'report-list');
    expect(
      await q(`filter[report_type_description]=${encodeURIComponent(arudd.attributes.report_type_description)}`),
    ).toEqual([arudd]);
    expect(await q(`filter[created_on_after]=${arudd.created_on}`)).toContainEqual(addacs);
    expect(await q(`filter[created_on_after]=${arudd.created_on}`)).not.toContainEqual(arudd);
    expect(await q(`filter[created_on_before]=${addacs.created_on}`)).not.toContainEqual(addacs);
    expect(await q(`filter[modified_on_before]=${addacs.modified_on}`)).toContainEqual(arudd);
    expect(await q(`filter[modified_on_after]=${addacs.modified_on}`)).toEqual([]);
    const bad = await rt.call('GET', '/v1/notification/reports?filter[created_on_after]=soon');
    expect(bad.status).toBe(400);
    expect((await json(bad)).error_message).toContain('filter[created_on_after] must be a date-time');
  });
});
