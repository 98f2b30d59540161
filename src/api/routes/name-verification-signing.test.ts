import { beforeAll, describe, expect, it } from 'vitest';
import { copBody, iatNow, jwksOf, NW, verifiedAnswer } from '../../../test/support/cop-answers.ts';
import { NORTHWIND_COP_PATH } from '../../../test/support/testing.ts';
import { verifyCopResponse } from '../../client/cop-requester.ts';
import { signAsRequester } from '../../harness/cop-keys.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { OB_IAT, OB_ISS } from '../../signatures/jws-profile.ts';

const PATH = NORTHWIND_COP_PATH;
const JWKS_PATH = `/v1/participants/${NW}/jwks.json`;

describe('the participant JWKS', () => {
  it('publishes the participant key (PS256, sig, kid) at GET /v1/participants/{id}/jwks.json, no token needed', async () => {
    const rt = await testRuntime();
    const jwks = await jwksOf(rt);
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'PS256', use: 'sig', e: 'AQAB' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    expect(Buffer.from(jwks.keys[0]!.n!, 'base64url').length).toBeGreaterThanOrEqual(256);
    // A participant whose key was given a kid publishes it.
    expect((await jwksOf(rt, '0015800000jf9GgAAI')).keys[0]!.kid).toBe('harbour-test-signing-key');
    expect((await rt.app.request(JWKS_PATH, { method: 'HEAD' })).status).toBe(200);
  });

  it('answers an unknown participant 404 and another method 405 in the Open Banking shape', async () => {
    const rt = await testRuntime();
    const unknown = await rt.app.request('/v1/participants/NOPE/jwks.json');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).Errors[0].ErrorCode).toBe('UK.OBIE.Resource.NotFound');
    const post = await rt.app.request(JWKS_PATH, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('every name-verification answer is signed by its participant', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await testRuntime();
    rt.sim.accounts.create({
      id: crypto.randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
      attributes: { bank_id: '400300', account_number: '12345678', name: ['Samantha Holder'] },
    });
  });

  it('signs a 200 with the profile claims: kid of the JWKS, iss the participant, iat the wall clock', async () => {
    const { json, header } = await verifiedAnswer(rt, await rt.call('POST', PATH, copBody()));
    expect(json.Data.VerificationReport).toEqual({ Matched: true });
    expect(header[OB_ISS]).toBe(NW);
    expect(header[OB_IAT]).toBe(Math.floor(rt.wall.now().getTime() / 1000));
    expect(header.kid).toBe((await jwksOf(rt)).keys[0]!.kid);
  });

  it.each([
    ['a validation error', 400, () => rt.call('POST', PATH, { Data: {} })],
    ['malformed JSON', 400, () => rt.call('POST', PATH, '{')],
    [
      'no token',
      401,
      () => rt.app.request(PATH, { method: 'POST', body: copBody(), headers: { 'content-type': 'application/json' } }),
    ],
    ['Accept refused', 406, () => rt.call('POST', PATH, copBody(), { headers: { accept: 'text/plain' } })],
    ['another method', 405, () => rt.call('GET', PATH)],
    [
      'a route under the participant that does not exist',
      404,
      () => rt.call('POST', `/v1/participants/${NW}/other`, copBody()),
    ],
    ['a body over 1 MiB', 413, () => rt.call('POST', PATH, copBody({ Name: 'x'.repeat(1024 * 1024) }))],
  ])('signs %s too (status %i)', async (_what, status, send) => {
    const res = await send();
    expect(res.status).toBe(status);
    const { json } = await verifiedAnswer(rt, res);
    expect(json.Errors.length).toBeGreaterThan(0);
  });

  it('cannot sign for a participant that does not exist (no key, no JWKS)', async () => {
    const res = await rt.call('POST', '/v1/participants/NOPE/open-banking/v3.1/accounts/name-verification', copBody());
    expect(res.status).toBe(404);
    expect(res.headers.get('x-jws-signature')).toBeNull();
  });

  it('reuses the signature of a body it answered before, and signs afresh with the cache off', async () => {
    const a = await rt.call('POST', PATH, copBody());
    const b = await rt.call('POST', PATH, copBody());
    expect(a.headers.get('x-jws-signature')).toBe(b.headers.get('x-jws-signature'));
    const fresh = await testRuntime({ copSignatureCache: 0 });
    const c = await fresh.call('POST', PATH, copBody());
    const d = await fresh.call('POST', PATH, copBody());
    expect(await c.text()).toBe(await d.text());
    expect(c.headers.get('x-jws-signature')).not.toBe(d.headers.get('x-jws-signature')); // PSS is randomised
  });

  it('a cached signature gives way to a new one after five minutes of wall time', async () => {
    const own = await testRuntime();
    const first = (await own.call('POST', PATH, copBody())).headers.get('x-jws-signature');
    own.wall.advanceMs(4 * 60_000);
    expect((await own.call('POST', PATH, copBody())).headers.get('x-jws-signature')).toBe(first);
    own.wall.advanceMs(2 * 60_000);
    const later = await own.call('POST', PATH, copBody());
    expect(later.headers.get('x-jws-signature')).not.toBe(first);
    const { header } = await verifiedAnswer(own, later);
    expect(header[OB_IAT]).toBe(Math.floor(own.wall.now().getTime() / 1000));
  });

  it('--jws-profile 3.1.3 signs with b64 false, which a 3.1.4 verifier refuses', async () => {
    const old = await testRuntime({ jwsProfile: '3.1.3' });
    const res = await old.call('POST', PATH, copBody());
    const bytes = new Uint8Array(await res.clone().arrayBuffer());
    const { header } = await verifiedAnswer(old, res, '3.1.3');
    expect(header).toMatchObject({ b64: false, crit: ['b64', OB_IAT, OB_ISS, 'http://openbanking.org.uk/tan'] });
    await expect(
      verifyCopResponse(res.headers, bytes, await jwksOf(old), { now: old.wall.now(), profile: '3.1.4' }),
    ).rejects.toMatchObject({ code: 'UK.OBIE.Signature.InvalidClaim', path: 'b64' });
  });

  it('refuses an unknown JWS profile at start', async () => {
    await expect(testRuntime({ jwsProfile: '3.2' as never })).rejects.toThrow(
      /JWS profile must be one of 3.1.4, 3.1.3/,
    );
  });
});

describe('request signatures outside strict mode: verified and reported, never refused', () => {
  it('says absent, valid or invalid in x-scheme-sim-jws, with the reason when invalid', async () => {
    const rt = await testRuntime();
    const absent = await rt.call('POST', PATH, copBody());
    expect(absent.status).toBe(200);
    expect(absent.headers.get('x-scheme-sim-jws')).toBe('absent');
    const text = copBody();
    const valid = await rt.call('POST', PATH, text, {
      headers: { 'x-jws-signature': await signAsRequester('northwind', text, { iat: iatNow(rt) }) },
    });
    expect(valid.status).toBe(200);
    expect(valid.headers.get('x-scheme-sim-jws')).toBe('valid');
    expect(valid.headers.get('x-scheme-sim-jws-problem')).toBeNull();
    const invalid = await rt.call('POST', PATH, text, {
      headers: {
        'x-jws-signature': await signAsRequester('northwind', copBody({ Name: 'Other' }), { iat: iatNow(rt) }),
      },
    });
    expect(invalid.status).toBe(200);
    expect(invalid.headers.get('x-scheme-sim-jws')).toBe('invalid');
    expect(invalid.headers.get('x-scheme-sim-jws-problem')).toMatch(/^UK\.OBIE\.Signature\.Invalid: /);
    // The verdict rides on error answers too, and the answer is still signed.
    const bad = await rt.call('POST', PATH, '{}', { headers: { 'x-jws-signature': 'nonsense' } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-scheme-sim-jws')).toBe('invalid');
    expect(bad.headers.get('x-scheme-sim-jws-problem')).toMatch(/^UK\.OBIE\.Signature\.Malformed: /);
    await verifiedAnswer(rt, bad);
  });

  it('keeps claims echoed into the problem header to printable ASCII', async () => {
    const rt = await testRuntime();
    const text = copBody();
    const res = await rt.call('POST', PATH, text, {
      headers: { 'x-jws-signature': await signAsRequester('northwind', text, { iat: iatNow(rt), iss: 'Bänk\u2028x' }) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-scheme-sim-jws-problem')).toContain('iss B?nk?x is not');
  });
});
