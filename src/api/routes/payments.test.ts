import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertMatchesSchema } from '../../harness/assert-schema.ts';
import { claimAttributes } from '../../harness/claim-attributes.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

const ORG = NORTHWIND.organisation_id;
let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;

async function fileClaim(amounts: string[]) {
  const id = randomUUID();
  const attributes = claimAttributes(amounts, { reference: `DDIC${id.slice(0, 8)}` }, '2026-12-18');
  expect(
    (
      await rt.call('POST', '/v1/transaction/claims', {
        data: { id, organisation_id: ORG, type: 'claims', attributes },
      })
    ).status,
  ).toBe(201);
  const sub = await rt.call('POST', `/v1/transaction/claims/${id}/submissions`, {
    data: { id: randomUUID(), organisation_id: ORG, type: 'claim_submissions' },
  });
  expect(sub.status).toBe(201);
  return id;
}
const advance = async (working_days: number) =>
  expect((await rt.call('POST', '/v1/simulator/clock/advance', { working_days })).status).toBe(200);

describe('/v1/transaction/payments', () => {
  it('serves the contras of two days, paged, with their admissions', async () => {
    const day1 = [await fileClaim(['100.10']), await fileClaim(['0.20', '0.70'])];
    await advance(1);
    await fileClaim(['3.33']);
    await advance(14);

    const first = await json(await rt.call('GET', '/v1/transaction/payments?page[size]=1'));
    assertMatchesSchema('payment-list', first);
    expect(first.data).toHaveLength(1);
    expect(first.links).toMatchObject({
      self: '/v1/transaction/payments?page%5Bnumber%5D=0&page%5Bsize%5D=1',
      first: '/v1/transaction/payments?page%5Bnumber%5D=first&page%5Bsize%5D=1',
      last: '/v1/transaction/payments?page%5Bnumber%5D=last&page%5Bsize%5D=1',
      next: '/v1/transaction/payments?page%5Bnumber%5D=1&page%5Bsize%5D=1',
    });
    const contra = first.data[0];
    expect(contra.attributes).toMatchObject({
      amount: '101.00',
      scheme_payment_sub_type: 'DDICSettlement',
      processing_date: '2027-01-13',
    });
    expect(contra.relationships.claims.data.map((c: any) => c.id)).toEqual(day1);

    const last = await json(await rt.call('GET', first.links.last));
    expect(last.data[0].attributes).toMatchObject({ amount: '3.33', processing_date: '2027-01-14' });
    expect(last.links.next).toBeUndefined();

    const one = await json(await rt.call('GET', `/v1/transaction/payments/${contra.id}`));
    assertMatchesSchema('payment-single', one);
    const admissionId = one.data.relationships.payment_admission.data[0].id;
    const admission = await rt.call('GET', `/v1/transaction/payments/${contra.id}/admissions/${admissionId}`);
    expect(admission.status).toBe(200);
    const body = await json(admission);
    assertMatchesSchema('payment-admission-single', body);
    expect(body.links.self).toBe(`/v1/transaction/payments/${contra.id}/admissions/${admissionId}`);
    expect(body.data.attributes).toMatchObject({
      status: 'confirmed',
      status_reason: 'accepted',
      admission_datetime: '2027-01-13T00:00:00.000Z',
    });

    const filtered = await json(await rt.call('GET', '/v1/transaction/payments?filter[processing_date]=2027-01-14'));
    expect(filtered.data.map((p: any) => p.attributes.amount)).toEqual(['3.33']);

    expect((await rt.call('GET', `/v1/transaction/payments/${last.data[0].id}/admissions/${admissionId}`)).status).toBe(
      404,
    );
    expect((await rt.call('GET', `/v1/transaction/payments/${contra.id}`, undefined, { client: HARBOUR })).status).toBe(
      404,
    );
    expect((await rt.call('GET', `/v1/transaction/payments/${contra.id}/admissions/x`)).status).toBe(400);
    expect((await rt.call('POST', '/v1/transaction/payments', {})).status).toBe(405);
  });

  it('lists nothing before settlement', async () => {
    await fileClaim(['1.00']);
    await advance(13);
    const list = await json(await rt.call('GET', '/v1/transaction/payments'));
    assertMatchesSchema('payment-list', list);
    expect(list.data).toEqual([]);
  });
});
