import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { xpathValues } from '../../../features/support/report-files.ts';
import {
  childRequest,
  claimRequest,
  claimRequestAttributes,
  createClaimVia,
  submitVia,
} from '../../../test/support/claim-requests.ts';
import { SchemeClock } from '../../clock/scheme-clock.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

const ORG = NORTHWIND.organisation_id;
const attrs = claimRequestAttributes;
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

describe('the DDIC claim submission report', () => {
  it('arrives as a report of the reports service on D0+1, listing the sequence number', async () => {
    const claim = await createClaim({ reference: 'DDICREPORT1' });
    const sub = await submit(claim.id);
    await advance(1);
    const seq = (await json(await rt.call('GET', `/v1/transaction/claims/${claim.id}/submissions/${sub.id}`))).data
      .attributes.sequence_number;
    const list = await json(
      await rt.call('GET', '/v1/notification/reports?filter[report_type]=BACS_DDIC_CLAIM_SUBMISSION'),
    );
    expect(list.data).toHaveLength(1);
    expect(list.data[0].attributes).toMatchObject({ processing_date: '2026-12-22', report_source: 'bacs-paying-bank' });
    const xml = (await rt.sim.reports.content(rt.sim.reports.get(list.data[0].id))).xml();
    expect(xpathValues(xml, '//DDICClaim/PayingBankReference')).toEqual(['DDICREPORT1']);
    expect(xpathValues(xml, '//DDICClaim/SeqNo')).toEqual([seq]);
    expect(xpathValues(xml, '//DDICClaim/TotalAmount')).toEqual(['49.99']);
    expect(xpathValues(xml, '//DDICClaim/ClaimId')).toEqual([claim.id]);
    expect(xpathValues(xml, '//DDICClaim/ClaimSubmissionId')).toEqual([sub.id]);
    expect(xpathValues(xml, '//Document/ProcessingDate')).toEqual(['2026-12-22']);
  });
});

describe('malformed requests', () => {
  it('answer 4xx, never 500, on every claim route', async () => {
    const claim = await createClaim();
    const values: unknown[] = [null, 0, -1, 1.5, '', 'x', true, [], {}, [null], { data: null }, '9'.repeat(40)];
    const paths = [
      '/v1/transaction/claims',
      `/v1/transaction/claims/${claim.id}/submissions`,
      `/v1/transaction/claims/${claim.id}/reversals`,
      `/v1/transaction/claims/${claim.id}/reversals/${randomUUID()}/submissions`,
    ];
    const fields = ['id', 'organisation_id', 'type', 'version', 'attributes'];
    for (const path of paths) {
      for (const field of fields) {
        for (const value of values) {
          if (field === 'version' && value === 0) continue; // the one valid value
          // Null is absent, as Form3 reads it: an absent type is the resource's own, an absent version 0.
          if ((field === 'type' || field === 'version') && value === null) continue;
          // An empty string in a field go-form3's model holds as a plain string is not given, as
          // go-swagger reads it (swag.IsZero; decision 029): an empty type is the resource's own.
          if (field === 'type' && value === '') continue;
          const body = claimBody() as any;
          body.data[field] = value;
          const res = await rt.call('POST', path, body);
          expect(res.status, `${path} ${field}=${JSON.stringify(value)}`).toBeGreaterThanOrEqual(400);
          expect(res.status, `${path} ${field}=${JSON.stringify(value)}`).toBeLessThan(500);
        }
      }
    }
    // Wrong types are refused; a string Form3's model accepts is created (the scheme may fail it at
    // validation), and either way nothing answers 5xx, at creation or when the clock runs it.
    for (const attr of Object.keys(attrs())) {
      for (const value of values) {
        const res = await rt.call('POST', '/v1/transaction/claims', claimBody({ [attr]: value }));
        const expected =
          (typeof value === 'string' && ['reference', 'payment_scheme', 'contact_name'].includes(attr)) ||
          (attr === 'number_of_claims' && Number.isInteger(value)) ||
          (attr === 'disputed_transactions' && Array.isArray(value) && value.length === 0);
        expect(res.status, `${attr}=${JSON.stringify(value)}`).toBe(expected ? 201 : 400);
        if (res.status === 201) await submitVia(rt, ((await res.json()) as { data: { id: string } }).data.id);
      }
    }
    expect((await rt.call('POST', '/v1/simulator/clock/advance', { working_days: 15 })).status).toBe(200);
    expect(
      (await rt.call('POST', '/v1/transaction/claims', '{"data":', { headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(400);
    expect(
      (await rt.call('POST', '/v1/transaction/claims', 'x', { headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(415);
    expect((await rt.call('DELETE', `/v1/transaction/claims/${claim.id}`)).status).toBe(405);
  });
});

describe('claims near the end of the supported dates', () => {
  it('refuses a submission whose D0+14 would fall after 2199-12-31 with a 400 (as the swagger documents), not a 500', async () => {
    await rt.close();
    rt = await testRuntime({ clockState: SchemeClock.frozenAt('2199-12-20T09:00:00Z') });
    const claim = await createClaim();
    const res = await rt.call('POST', `/v1/transaction/claims/${claim.id}/submissions`, subBody());
    expect(res.status).toBe(400);
    expect((await json(res)).error_message).toMatch(
      new RegExp(
        `^claim ${claim.id} cannot be submitted at 2199-12-20T09:00:00.000Z: its timeline runs to working day D0\\+14, past 2199-12-31`,
      ),
    );
  });

  it('answers 400 (not 500) for a submission from a clock outside the range', async () => {
    await rt.close();
    rt = await testRuntime({ clockState: SchemeClock.frozenAt('9999-12-28T09:00:00Z') });
    const claim = await createClaim();
    const res = await rt.call('POST', `/v1/transaction/claims/${claim.id}/submissions`, subBody());
    expect(res.status).toBe(400);
  });

  it("accepts any date of format date, as Form3's model does, outside the calendar's range too", async () => {
    const res = await rt.call(
      'POST',
      '/v1/transaction/claims',
      claimBody({ disputed_transactions: [{ amount: '1.00', date: '0050-01-01' }] }),
    );
    expect(res.status).toBe(201);
  });
});
