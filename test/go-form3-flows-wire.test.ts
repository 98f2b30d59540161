import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form3SignedHeaders } from '../src/client/form3-request-signer.ts';
import { SchemeClock } from '../src/clock/scheme-clock.ts';
import { assertMatchesSchema } from '../src/harness/assert-schema.ts';
import { NORTHWIND, TEST_START } from '../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import { createRuntime } from '../src/runtime.ts';
import { DEV_SIGNING_KEY_ID, devSigningKey } from './support/dev-signing-key.ts';
import { type Go3Model, go3ModelProblems } from './support/go-form3-models.ts';

// Every flow the simulator serves, as Form3's Go SDK drives it in request-signing mode (the mode it
// recommends): signed requests, application/vnd.api+json both ways, bodies as its models serialise
// them (no `type`, omitempty). Each answer is held to go-form3's models (test/support/
// go-form3-models.ts: relationships.*.data items are the related resource, with organisation_id
// and attributes) and to the simulator's own schema. test/go-sdk runs the SDK itself.

let server: RunningServer;
beforeAll(async () => {
  const runtime = await createRuntime({
    memory: true,
    seedAccounts: false,
    scheduledReports: false,
    // The scheme clock stands at a known Monday; the wall clock is real (signatures carry a Date).
    clock: SchemeClock.frozenAt(TEST_START),
  });
  server = await listen(runtime, 0);
});
afterAll(() => server.close());

const org = NORTHWIND.organisation_id;

async function sdk(method: string, path: string, body?: unknown): Promise<Response> {
  const url = new URL(`${server.url}${path}`);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = form3SignedHeaders(url, method, text, DEV_SIGNING_KEY_ID, devSigningKey());
  return fetch(url, {
    method,
    headers: { 'User-Agent': 'form3-sdk-go', Accept: 'application/vnd.api+json', ...headers },
    ...(text === undefined ? {} : { body: text }),
  });
}

/** The answer's body after its status is checked, held to go-form3's model and the simulator's schema. */
async function answer(res: Response, status: number, model: Go3Model, schema: string): Promise<any> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
  const body = JSON.parse(text);
  expect(go3ModelProblems(model, body)).toEqual([]);
  assertMatchesSchema(schema, body);
  return body;
}

const advance = (working_days: number) => sdk('POST', '/v1/simulator/clock/advance', { working_days });

/** A claim as the SDK's models.Claim serialises it (BACS; no type, no version). */
const claimBody = (id: string) => ({
  data: {
    attributes: {
      beneficiary_party: { account_number: '41426819', bank_id: '400300' },
      clearing_id: '123456',
      debtor_party: { account_name: 'Acme', account_number: '87654321', bank_id: '203040' },
      disputed_transactions: [{ amount: '12.34', date: '2026-10-01' }],
      number_of_claims: 1,
      original_instruction: { clearing_id: '654321', reference: 'ACME-1' },
      payment_scheme: 'BACS',
      reason_code: '2',
      reference: 'DDICGOFORM3',
    },
    id,
    organisation_id: org,
  },
});

async function createAndSubmit(): Promise<{ claim: any; submission: any }> {
  const id = randomUUID();
  const claim = (await answer(await sdk('POST', '/v1/transaction/claims', claimBody(id)), 201, 'Claim', 'claim-single'))
    .data;
  const sid = randomUUID();
  const submitted = await answer(
    await sdk('POST', `/v1/transaction/claims/${id}/submissions`, { data: { id: sid, organisation_id: org } }),
    201,
    'ClaimSubmission',
    'claim-submission-single',
  );
  expect(submitted.data.relationships.claim.data[0]).toMatchObject({ id, organisation_id: org });
  const fetched = await answer(
    await sdk('GET', `/v1/transaction/claims/${id}/submissions/${sid}`),
    200,
    'ClaimSubmission',
    'claim-submission-single',
  );
  await answer(await sdk('GET', `/v1/transaction/claims/${id}`), 200, 'Claim', 'claim-single');
  return { claim, submission: fetched.data };
}

describe("Form3's Go SDK, every flow on the wire, each answer valid for go-form3's models", () => {
  it('subscriptions: create, fetch, list, amend, delete', async () => {
    const id = randomUUID();
    await answer(
      await sdk('POST', '/v1/notification/subscriptions', {
        data: {
          attributes: {
            callback_uris: [{ callback_transport: 'http', callback_uri: 'http://127.0.0.1:9/hooks' }],
            event_type: 'created',
            filter: 'attributes.country=GB',
            record_type: 'accounts',
          },
          id,
          organisation_id: org,
        },
      }),
      201,
      'Subscription',
      'subscription-single',
    );
    await answer(await sdk('GET', `/v1/notification/subscriptions/${id}`), 200, 'Subscription', 'subscription-single');
    await answer(
      await sdk('GET', '/v1/notification/subscriptions?filter%5Brecord_type%5D=accounts'),
      200,
      'Subscription',
      'subscription-list',
    );
    const amended = await answer(
      await sdk('PATCH', `/v1/notification/subscriptions/${id}`, {
        data: { attributes: { callback_uris: null, event_type: 'updated' }, id, organisation_id: org, version: 0 },
      }),
      200,
      'Subscription',
      'subscription-single',
    );
    expect(amended.data.attributes.event_type).toBe('updated');
    expect((await sdk('DELETE', `/v1/notification/subscriptions/${id}?version=1`)).status).toBe(204);
  });

  it('claims through the timeline: submitted, reversed, settled by a contra payment with its admission; reports', async () => {
    const reversed = await createAndSubmit();
    const settled = await createAndSubmit();
    const listed = await answer(
      await sdk('GET', `/v1/transaction/claims?filter%5Borganisation_id%5D=${randomUUID()}%2C${org}`),
      200,
      'Claim',
      'claim-list',
    );
    expect(listed.data.map((c: { id: string }) => c.id)).toEqual(
      expect.arrayContaining([reversed.claim.id, settled.claim.id]),
    );
    // Each listed claim shows its submission itself, as a GET does.
    const shown = listed.data.find((c: { id: string }) => c.id === settled.claim.id);
    expect(shown.relationships.claim_submission.data[0]).toMatchObject({
      id: settled.submission.id,
      type: 'claim_submissions',
      organisation_id: org,
      attributes: { status: 'validation_pending' },
    });

    expect((await advance(1)).status).toBe(200);
    const claimPath = `/v1/transaction/claims/${reversed.claim.id}`;
    const processed = await answer(
      await sdk('GET', `${claimPath}/submissions/${reversed.submission.id}`),
      200,
      'ClaimSubmission',
      'claim-submission-single',
    );
    const rid = randomUUID();
    const reversal = await answer(
      await sdk('POST', `${claimPath}/reversals`, {
        data: {
          attributes: { original_instruction_id: processed.data.attributes.sequence_number },
          id: rid,
          organisation_id: org,
        },
      }),
      201,
      'ClaimReversal',
      'claim-reversal-single',
    );
    expect(reversal.data.relationships.claim.data[0]).toMatchObject({ id: reversed.claim.id, version: 2 });
    await answer(await sdk('GET', `${claimPath}/reversals/${rid}`), 200, 'ClaimReversal', 'claim-reversal-single');
    const rsid = randomUUID();
    const rsub = await answer(
      await sdk('POST', `${claimPath}/reversals/${rid}/submissions`, { data: { id: rsid, organisation_id: org } }),
      201,
      'ClaimReversalSubmission',
      'claim-reversal-submission-single',
    );
    expect(rsub.data.relationships.claim_reversal.data[0]).toMatchObject({
      id: rid,
      attributes: { original_instruction_id: processed.data.attributes.sequence_number },
    });
    await answer(
      await sdk('GET', `${claimPath}/reversals/${rid}/submissions/${rsid}`),
      200,
      'ClaimReversalSubmission',
      'claim-reversal-submission-single',
    );
    const withReversal = await answer(await sdk('GET', claimPath), 200, 'Claim', 'claim-single');
    expect(withReversal.data.relationships.claim_reversal.data[0]).toMatchObject({ id: rid, type: 'claim_reversals' });

    expect((await advance(13)).status).toBe(200);
    const settledClaim = await answer(
      await sdk('GET', `/v1/transaction/claims/${settled.claim.id}`),
      200,
      'Claim',
      'claim-single',
    );
    const paymentId = settledClaim.data.relationships.payment.data[0].id;
    const payment = await answer(
      await sdk('GET', `/v1/transaction/payments/${paymentId}`),
      200,
      'Payment',
      'payment-single',
    );
    const admission = payment.data.relationships.payment_admission.data[0];
    expect(admission).toMatchObject({ type: 'payment_admissions', attributes: { status: 'confirmed' } });
    const gotAdmission = await answer(
      await sdk('GET', `/v1/transaction/payments/${paymentId}/admissions/${admission.id}`),
      200,
      'PaymentAdmission',
      'payment-admission-single',
    );
    expect(gotAdmission.data.relationships.payment.data[0]).toMatchObject({
      id: paymentId,
      attributes: { reference: payment.data.attributes.reference },
    });
    const payments = await answer(
      await sdk(
        'GET',
        `/v1/transaction/payments?filter%5Breference%5D=${encodeURIComponent(payment.data.attributes.reference)}`,
      ),
      200,
      'Payment',
      'payment-list',
    );
    expect(payments.data.map((p: { id: string }) => p.id)).toEqual([paymentId]);

    // The DDIC claim submission report arrived at processing (D0+1).
    const reports = await answer(
      await sdk('GET', `/v1/notification/reports?filter%5Borganisation_id%5D=${org}`),
      200,
      'Report',
      'report-list',
    );
    expect(reports.data.length).toBeGreaterThan(0);
    const report = await answer(
      await sdk('GET', `/v1/notification/reports/${reports.data[0].id}`),
      200,
      'Report',
      'report-single',
    );
    const reportAdmission = report.data.relationships.report_admission.data[0];
    const gotReportAdmission = await answer(
      await sdk('GET', `/v1/notification/reports/${report.data.id}/admissions/${reportAdmission.id}`),
      200,
      'ReportAdmission',
      'report-admission-single',
    );
    // The seed: the admission's relationships.report.data holds the Report with its attributes.
    expect(gotReportAdmission.data.relationships.report.data).toEqual([
      {
        id: report.data.id,
        type: 'reports',
        version: report.data.version,
        organisation_id: org,
        attributes: report.data.attributes,
      },
    ]);
  });
});
