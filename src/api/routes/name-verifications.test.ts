import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  NAME_VERIFICATIONS,
  nameVerificationBody,
  registerPayee,
} from '../../../test/support/name-verification-requests.ts';
import { assertMatchesSchema } from '../../harness/assert-schema.ts';
import { FENWICK, HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
  await registerPayee(rt, HARBOUR, { account_number: '12345678', name: ['Samantha Holder'] });
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;
const ask = (attributes: Record<string, unknown> = {}, client = NORTHWIND, id?: string) =>
  rt.call('POST', NAME_VERIFICATIONS, nameVerificationBody(client.organisation_id, attributes, id), { client });
const fetchOne = async (id: string, client = NORTHWIND) =>
  json(await rt.call('GET', `${NAME_VERIFICATIONS}/${id}`, undefined, { client }));

describe('POST /v1/organisation/nameverifications', () => {
  it("creates the request (201, version 0) and the payee bank's answer is on it at once", async () => {
    const res = await ask({ name: ['Sam', 'Holder'] });
    expect(res.status).toBe(201);
    const created = await json(res);
    assertMatchesSchema('name-verification-single', created);
    expect(created.data).toMatchObject({
      type: 'name_verifications',
      version: 0,
      organisation_id: NORTHWIND.organisation_id,
    });
    expect(created.links.self).toBe(`${NAME_VERIFICATIONS}/${created.data.id}`);

    const got = await fetchOne(created.data.id);
    assertMatchesSchema('name-verification-single', got);
    const submission = got.data.relationships.name_verification_submission.data[0];
    expect(submission.attributes).toEqual({
      status: 'delivery_confirmed',
      answer: 'rejected',
      reason_code: 'MBAM',
      reason: 'the name is a close match to the account name',
      actual_name: 'Samantha Holder',
    });
    const own = await json(
      await rt.call('GET', `${NAME_VERIFICATIONS}/${created.data.id}/submissions/${submission.id}`),
    );
    assertMatchesSchema('name-verification-submission-single', own);
  });

  it("the payee's bank reads its admission of the request, with the answer and who asked", async () => {
    await ask();
    const list = await json(await rt.call('GET', NAME_VERIFICATIONS, undefined, { client: HARBOUR }));
    assertMatchesSchema('name-verification-list', list);
    expect(list.data).toHaveLength(1);
    const inbound = list.data[0];
    const admissionId = inbound.relationships.name_verification_admission.data[0].id;
    const res = await rt.call('GET', `${NAME_VERIFICATIONS}/${inbound.id}/admissions/${admissionId}`, undefined, {
      client: HARBOUR,
    });
    expect(res.status).toBe(200);
    const admission = await json(res);
    assertMatchesSchema('name-verification-admission-single', admission);
    expect(admission.data.attributes).toEqual({
      status: 'confirmed',
      answer: 'confirmed',
      debtor_party: { account_with: { bank_name: 'Northwind Bank plc' } },
    });
    expect(admission.links.self).toBe(`${NAME_VERIFICATIONS}/${inbound.id}/admissions/${admissionId}`);
    // Another organisation, or the admission under another name verification: 404.
    expect((await rt.call('GET', admission.links.self)).status).toBe(404);
    const mine = (await json(await rt.call('GET', NAME_VERIFICATIONS))).data[0];
    expect((await rt.call('GET', `${NAME_VERIFICATIONS}/${mine.id}/admissions/${admissionId}`)).status).toBe(404);
  });

  it('reads a body as go-form3 sends it: no type, empty relationships, nulls absent, vnd.api+json', async () => {
    const body = nameVerificationBody(NORTHWIND.organisation_id, { requester: null, id_code_type: null });
    const res = await rt.call(
      'POST',
      NAME_VERIFICATIONS,
      {
        data: {
          ...body.data,
          version: 0,
          created_on: null,
          relationships: { name_verification_admission: { data: [] }, name_verification_submission: { data: [] } },
        },
      },
      { headers: { 'content-type': 'application/vnd.api+json' } },
    );
    expect(res.status).toBe(201);
    expect((await json(res)).data.attributes).not.toHaveProperty('requester');
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['no account number', { account_number: null }, 'account_number in body is required'],
    [
      'a lower-case account number',
      { account_number: 'ab123456' },
      "account_number in body should match '^[A-Z0-9]{6,34}$'",
    ],
    ['an unknown bank_id_code', { bank_id_code: 'GBSC' }, 'bank_id_code in body should be one of ['],
    [
      'an unknown classification',
      { account_classification: 'Personal' },
      'account_classification in body should be one of [personal business]',
    ],
    ['an empty name part', { name: ['Sam', ''] }, 'name.1 in body should be at least 1 chars long'],
    [
      'a psp_request_id of 37',
      { psp_request_id: 'x'.repeat(37) },
      'psp_request_id in body should be at most 36 chars long',
    ],
    [
      'a requester without its code',
      { requester: { bank_id: '400300' } },
      'requester.bank_id_code in body is required',
    ],
  ];
  it.each(refusals)('400 for %s, naming the field and rule', async (_, attributes, message) => {
    const res = await ask(attributes);
    expect(res.status).toBe(400);
    expect((await json(res)).error_message).toContain(message);
  });

  it('403 for another organisation, 409 for an id in use, 405 for another method', async () => {
    const res = await rt.call('POST', NAME_VERIFICATIONS, nameVerificationBody(HARBOUR.organisation_id));
    expect(res.status).toBe(403);
    const id = randomUUID();
    expect((await ask({}, NORTHWIND, id)).status).toBe(201);
    const again = await ask({}, NORTHWIND, id);
    expect(again.status).toBe(409);
    expect((await json(again)).error_message).toBe(
      'Name verification cannot be created as it violates a duplicate constraint',
    );
    const del = await rt.call('DELETE', `${NAME_VERIFICATIONS}/${id}`);
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET');
  });

  it('a sort code of no participant is answered SCNS; an IBAN request fails delivery, saying why', async () => {
    const scns = await json(await ask({ bank_id: '400999' }));
    expect(
      (await fetchOne(scns.data.id)).data.relationships.name_verification_submission.data[0].attributes,
    ).toMatchObject({
      status: 'delivery_confirmed',
      answer: 'rejected',
      reason_code: 'SCNS',
    });
    const iban = await json(await ask({ account_number_code: 'IBAN', account_number: 'GB33HRBR30963412345678' }));
    expect((await fetchOne(iban.data.id)).data.relationships.name_verification_submission.data[0].attributes).toEqual({
      status: 'delivery_failed',
      status_reason:
        'Confirmation of Payee identifies the account by sort code and account number: account_number_code must be BBAN, not IBAN',
    });
  });

  it("what the scheme refuses shows as the responder's refusal: a name over 140 characters", async () => {
    const created = await json(await ask({ name: ['A'.repeat(141)] }));
    const submission = (await fetchOne(created.data.id)).data.relationships.name_verification_submission.data[0];
    expect(submission.attributes.status).toBe('delivery_failed');
    expect(submission.attributes.status_reason).toMatch(
      /^Harbour Building Society \(0015800000jf9GgAAI\) refused the request: 400; UK\.OBIE\.Field\.Invalid at Data\.Name: /,
    );
  });
});

describe('GET /v1/organisation/nameverifications', () => {
  it("lists only the caller's, with Form3's filters and paging", async () => {
    const a = (await json(await ask({ name: ['Samantha', 'Holder'] }))).data.id;
    const b = (await json(await ask({ name: ['Someone Else'] }))).data.id;
    await ask({}, FENWICK);
    const ids = async (query: string) =>
      (await json(await rt.call('GET', `${NAME_VERIFICATIONS}?${query}`))).data.map((r: any) => r.id);
    expect(await ids('')).toEqual([a, b]);
    expect(await ids('filter[submission.answer]=confirmed')).toEqual([a]);
    expect(await ids('filter[submission.reason_code]=ANNM')).toEqual([b]);
    expect(await ids('filter[name]=Someone%20Else,Nobody')).toEqual([b]);
    expect(await ids(`filter[organisation_id]=${FENWICK.organisation_id}`)).toEqual([]);
    expect(await ids('filter[created_date_from]=2026-12-21T09:00:00Z&filter[created_date_to]=2026-12-21')).toEqual([
      a,
      b,
    ]);
    const paged = await json(await rt.call('GET', `${NAME_VERIFICATIONS}?page[size]=1&page[number]=1`));
    expect(paged.data.map((r: any) => r.id)).toEqual([b]);
    expect(paged.links.prev).toEqual(expect.stringContaining('page'));
    expect(paged.links.next ?? null).toBeNull();
    const bad = await rt.call('GET', `${NAME_VERIFICATIONS}?filter[created_date_from]=tuesday`);
    expect(bad.status).toBe(400);
    expect((await json(bad)).error_message).toContain('filter[created_date_from] must be a date-time');
    expect((await rt.call('GET', `${NAME_VERIFICATIONS}?filter[colour]=red`)).status).toBe(400);
  });

  it("another organisation's name verification is 404; a malformed id 400", async () => {
    const id = (await json(await ask())).data.id;
    expect((await rt.call('GET', `${NAME_VERIFICATIONS}/${id}`, undefined, { client: FENWICK })).status).toBe(404);
    expect((await rt.call('GET', `${NAME_VERIFICATIONS}/nope`)).status).toBe(400);
  });
});
