import { beforeAll, describe, expect, it } from 'vitest';
import { copRequest, NORTHWIND_COP_PATH } from '../../../test/support/testing.ts';
import { assertMatchesSchema } from '../../harness/assert-schema.ts';
import { signAsRequester } from '../../harness/cop-keys.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

const NW = '0015800001041REAAY';
const PATH = NORTHWIND_COP_PATH;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const body = copRequest;

async function obError(res: Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const json = (await res.json()) as {
    Code: string;
    Errors: Array<{ ErrorCode: string; Path?: string; Message: string }>;
  };
  assertMatchesSchema('ob-error', json);
  expect(json.Code.startsWith(String(status))).toBe(true);
  return json;
}

describe('POST /v1/participants/{open_banking_id}/open-banking/v3.1/accounts/name-verification', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await testRuntime();
    const add = (organisation_id: string, account_number: string, attributes: Record<string, unknown>) =>
      rt.sim.accounts.create({
        id: crypto.randomUUID(),
        organisation_id,
        attributes: { bank_id: '400300', account_number, ...attributes },
      });
    add(NORTHWIND.organisation_id, '12345678', { name: ['Samantha Holder'] });
    add(NORTHWIND.organisation_id, '23456789', { name: ['John Smith & Jane Smith'], joint_account: true });
    add(HARBOUR.organisation_id, '99990000', { name: ['Harbour Holder'] });
  });

  it('answers a full match with Matched true only, Links.Self and empty Meta', async () => {
    const res = await rt.call('POST', PATH, body());
    expect(res.status).toBe(200);
    const json = await res.json();
    assertMatchesSchema('name-verification-response', json);
    expect(json).toEqual({ Data: { VerificationReport: { Matched: true } }, Links: { Self: PATH }, Meta: {} });
  });

  it('lets any client ask any participant and returns only the close joint holder', async () => {
    const res = await rt.call('POST', PATH, body({ Identification: '40030023456789', Name: 'Jon Smith' }), {
      client: HARBOUR,
    });
    const json = await res.json();
    assertMatchesSchema('name-verification-response', json);
    expect(json.Data.VerificationReport).toEqual({ Matched: false, ReasonCode: 'MBAM', Name: 'John Smith' });
  });

  it('looks accounts up only inside the participant organisation', async () => {
    const res = await rt.call('POST', PATH, body({ Identification: '40030099990000', Name: 'Harbour Holder' }), {
      client: HARBOUR,
    });
    expect((await res.json()).Data.VerificationReport).toEqual({ Matched: false, ReasonCode: 'AC01' });
  });

  it('echoes x-fapi-interaction-id, or generates one, on answers and errors', async () => {
    const echoed = await rt.call('POST', PATH, body(), { headers: { 'x-fapi-interaction-id': 'a1b2c3' } });
    expect(echoed.headers.get('x-fapi-interaction-id')).toBe('a1b2c3');
    expect((await rt.call('POST', PATH, body())).headers.get('x-fapi-interaction-id')).toMatch(UUID);
    const err = await rt.call('POST', PATH, '{', { headers: { 'x-fapi-interaction-id': 'err-1' } });
    expect(err.headers.get('x-fapi-interaction-id')).toBe('err-1');
    const unauth = await rt.app.request(PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body()),
    });
    expect(unauth.headers.get('x-fapi-interaction-id')).toMatch(UUID);
  });

  it('answers 401 in the Open Banking shape and keeps the Bearer challenge', async () => {
    const none = await rt.app.request(PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body()),
    });
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await obError(none, 401)).Errors[0]).toMatchObject({
      ErrorCode: 'UK.OBIE.Header.Missing',
      Path: 'Authorization',
    });
    const bad = await rt.app.request(PATH, {
      method: 'POST',
      headers: { authorization: 'Bearer nope', 'content-type': 'application/json' },
      body: '{}',
    });
    expect((await obError(bad, 401)).Errors[0]).toMatchObject({
      ErrorCode: 'UK.OBIE.Header.Invalid',
      Path: 'Authorization',
    });
  });

  it('answers 404 for an unknown participant and an unknown path below /v1/participants', async () => {
    const res = await rt.call('POST', '/v1/participants/UNKNOWN/open-banking/v3.1/accounts/name-verification', body());
    expect((await obError(res, 404)).Errors[0]).toMatchObject({
      ErrorCode: 'UK.OBIE.Resource.NotFound',
      Path: 'open_banking_id',
    });
    await obError(await rt.call('POST', `/v1/participants/${NW}/open-banking/v3.1/accounts`, body()), 404);
  });

  it('answers 405 for another method', async () => {
    const res = await rt.call('GET', PATH);
    expect(res.headers.get('allow')).toBe('POST');
    await obError(res, 405);
  });

  it('negotiates Accept: 406 unless application/json, application/*, */* or absent', async () => {
    for (const accept of [
      'application/json',
      'application/json; charset=utf-8',
      '*/*',
      'application/*',
      'text/html, application/json;q=0.5',
    ]) {
      expect((await rt.call('POST', PATH, body(), { headers: { accept } })).status, accept).toBe(200);
    }
    for (const accept of [
      'text/plain',
      'application/xml',
      'application/vnd.api+json',
      'application/json;q=0',
      'application/json;q=0, */*',
      'application/json; q = 0',
    ]) {
      const json = await obError(await rt.call('POST', PATH, body(), { headers: { accept } }), 406);
      expect(json.Errors[0]).toMatchObject({ ErrorCode: 'UK.OBIE.Header.Invalid', Path: 'Accept' });
    }
  });

  it('demands Content-Type application/json (415)', async () => {
    for (const type of ['text/plain', 'application/vnd.api+json', 'application/x-www-form-urlencoded']) {
      const json = await obError(await rt.call('POST', PATH, body(), { headers: { 'content-type': type } }), 415);
      expect(json.Errors[0]).toMatchObject({ Path: 'Content-Type' });
    }
    const none = await rt.app.request(PATH, {
      method: 'POST',
      headers: { authorization: `Bearer ${await rt.token()}` },
      body: new Uint8Array([123, 125]),
    });
    await obError(none, 415);
    expect(
      (await rt.call('POST', PATH, body(), { headers: { 'content-type': 'application/json; charset=utf-8' } })).status,
    ).toBe(200);
  });

  it('answers malformed or empty bodies with 400 UK.OBIE.Resource.InvalidFormat', async () => {
    for (const raw of ['{', '', '   ', '{"Data":', 'null x']) {
      const json = await obError(
        await rt.call('POST', PATH, raw, { headers: { 'content-type': 'application/json' } }),
        400,
      );
      expect(json.Errors[0]!.ErrorCode).toBe('UK.OBIE.Resource.InvalidFormat');
    }
  });

  const fieldCases: Array<[string, unknown, string, string]> = [
    ['no Data', {}, 'UK.OBIE.Field.Missing', 'Data'],
    ['Data not an object', { Data: 'x' }, 'UK.OBIE.Field.Invalid', 'Data'],
    ['body an array', [], 'UK.OBIE.Field.Invalid', ''],
    ['body null', null, 'UK.OBIE.Field.Invalid', ''],
    ['no Name', { Data: { ...body().Data, Name: undefined } }, 'UK.OBIE.Field.Missing', 'Data.Name'],
    ['no SchemeName', { Data: { ...body().Data, SchemeName: undefined } }, 'UK.OBIE.Field.Missing', 'Data.SchemeName'],
    [
      'no AccountType',
      { Data: { ...body().Data, AccountType: undefined } },
      'UK.OBIE.Field.Missing',
      'Data.AccountType',
    ],
    [
      'no Identification',
      { Data: { ...body().Data, Identification: undefined } },
      'UK.OBIE.Field.Missing',
      'Data.Identification',
    ],
    ['SchemeName IBAN', body({ SchemeName: 'UK.OBIE.IBAN' }), 'UK.OBIE.Field.Invalid', 'Data.SchemeName'],
    ['AccountType lower case', body({ AccountType: 'personal' }), 'UK.OBIE.Field.Invalid', 'Data.AccountType'],
    ['AccountType number', body({ AccountType: 1 }), 'UK.OBIE.Field.Invalid', 'Data.AccountType'],
    [
      'Identification 13 digits',
      body({ Identification: '4003001234567' }),
      'UK.OBIE.Field.Invalid',
      'Data.Identification',
    ],
    [
      'Identification letters',
      body({ Identification: '40030012345ABC' }),
      'UK.OBIE.Field.Invalid',
      'Data.Identification',
    ],
    ['Identification number', body({ Identification: 40030012345678 }), 'UK.OBIE.Field.Invalid', 'Data.Identification'],
    ['Name empty', body({ Name: '' }), 'UK.OBIE.Field.Invalid', 'Data.Name'],
    ['Name blank', body({ Name: '   ' }), 'UK.OBIE.Field.Invalid', 'Data.Name'],
    ['Name 141 chars', body({ Name: 'a'.repeat(141) }), 'UK.OBIE.Field.Invalid', 'Data.Name'],
    ['Name array', body({ Name: ['Samantha'] }), 'UK.OBIE.Field.Invalid', 'Data.Name'],
    ['Name null', body({ Name: null }), 'UK.OBIE.Field.Invalid', 'Data.Name'],
    [
      'SecondaryIdentification empty',
      body({ SecondaryIdentification: '' }),
      'UK.OBIE.Field.Invalid',
      'Data.SecondaryIdentification',
    ],
    [
      'SecondaryIdentification 35 chars',
      body({ SecondaryIdentification: 'x'.repeat(35) }),
      'UK.OBIE.Field.Invalid',
      'Data.SecondaryIdentification',
    ],
    [
      'SecondaryIdentification number',
      body({ SecondaryIdentification: 7 }),
      'UK.OBIE.Field.Invalid',
      'Data.SecondaryIdentification',
    ],
  ];
  it.each(fieldCases)('answers 400 for %s', async (_label, payload, code, path) => {
    const json = await obError(
      await rt.call('POST', PATH, JSON.stringify(payload), { headers: { 'content-type': 'application/json' } }),
      400,
    );
    const item = json.Errors.find((e) => (e.Path ?? '') === path);
    expect(item, JSON.stringify(json.Errors)).toBeDefined();
    expect(item!.ErrorCode).toBe(code);
  });

  it('accepts a 140-character Name and a 34-character SecondaryIdentification', async () => {
    const res = await rt.call('POST', PATH, body({ Name: 'a'.repeat(140), SecondaryIdentification: 'x'.repeat(34) }));
    expect((await res.json()).Data.VerificationReport).toEqual({ Matched: false, ReasonCode: 'ANNM' });
  });

  it('answers a body over 1 MiB with 413 in the Open Banking shape', async () => {
    const res = await rt.call('POST', PATH, body({ Name: 'x'.repeat(1024 * 1024 + 10) }), {
      headers: { 'x-fapi-interaction-id': 'big' },
    });
    await obError(res, 413);
    expect(res.headers.get('x-fapi-interaction-id')).toBe('big');
    const declared = await rt.call('POST', PATH, body(), { headers: { 'content-length': String(2 * 1024 * 1024) } });
    await obError(declared, 413);
  });
});

describe('name verification in strict mode (--cop-strict)', () => {
  it('demands x-fapi-financial-id (the participant id) and x-jws-signature (verified: name-verification-signing.test.ts)', async () => {
    const rt = await testRuntime({ copStrict: true });
    const missing = await obError(await rt.call('POST', PATH, body()), 400);
    expect(missing.Errors.map((e) => [e.ErrorCode, e.Path])).toEqual([
      ['UK.OBIE.Header.Missing', 'x-fapi-financial-id'],
      ['UK.OBIE.Signature.Missing', 'x-jws-signature'],
    ]);
    const wrong = await obError(
      await rt.call('POST', PATH, body(), { headers: { 'x-fapi-financial-id': 'other', 'x-jws-signature': 'sig' } }),
      400,
    );
    expect(wrong.Errors[0]).toMatchObject({ ErrorCode: 'UK.OBIE.Header.Invalid', Path: 'x-fapi-financial-id' });
    const text = JSON.stringify(body());
    const iat = Math.floor(rt.wall.now().getTime() / 1000);
    const ok = await rt.call('POST', PATH, text, {
      headers: { 'x-fapi-financial-id': NW, 'x-jws-signature': await signAsRequester('northwind', text, { iat }) },
    });
    expect((await ok.json()).Data.VerificationReport).toEqual({ Matched: false, ReasonCode: 'AC01' });
  });

  it('accepts the headers without demanding them by default', async () => {
    const rt = await testRuntime();
    expect((await rt.call('POST', PATH, body())).status).toBe(200);
    expect(
      (await rt.call('POST', PATH, body(), { headers: { 'x-fapi-financial-id': 'any', 'x-jws-signature': 'x' } }))
        .status,
    ).toBe(200);
  });
});
