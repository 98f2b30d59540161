import { beforeAll, describe, expect, it } from 'vitest';
import { copBody, iatNow, NW, verifiedAnswer } from '../../../test/support/cop-answers.ts';
import { NORTHWIND_COP_PATH } from '../../../test/support/testing.ts';
import { REQUESTER_TEST_KEYS, signAsRequester } from '../../harness/cop-keys.ts';
import { FENWICK, HARBOUR, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { OB_IAT, OB_ISS } from '../../signatures/jws-profile.ts';

const PATH = NORTHWIND_COP_PATH;

describe('request signatures in strict mode (--cop-strict)', () => {
  let rt: TestRuntime;
  const strictHeaders = (signature: string) => ({ 'x-fapi-financial-id': NW, 'x-jws-signature': signature });
  beforeAll(async () => {
    rt = await testRuntime({ copStrict: true });
  });

  async function refused(res: Response, code: string, path?: string) {
    expect(res.status).toBe(400);
    const { json } = await verifiedAnswer(rt, res);
    expect(json.Errors).toEqual([{ ErrorCode: code, Message: expect.any(String), ...(path ? { Path: path } : {}) }]);
    expect(res.headers.get('x-scheme-sim-jws')).toBe('invalid');
    return json;
  }

  it('answers a request signed with the client’s registered key, as an ASPSP or a TPP signs iss', async () => {
    const text = copBody();
    for (const iss of [undefined, `${NW}/software-statement-1`]) {
      const signature = await signAsRequester('northwind', text, { iat: iatNow(rt), ...(iss ? { iss } : {}) });
      const res = await rt.call('POST', PATH, text, { headers: strictHeaders(signature) });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-scheme-sim-jws')).toBe('valid');
      await verifiedAnswer(rt, res);
    }
  });

  it('no signature is UK.OBIE.Signature.Missing', async () => {
    const res = await rt.call('POST', PATH, copBody(), { headers: { 'x-fapi-financial-id': NW } });
    expect(res.status).toBe(400);
    const { json } = await verifiedAnswer(rt, res);
    expect(json.Errors).toEqual([
      { ErrorCode: 'UK.OBIE.Signature.Missing', Message: 'x-jws-signature is required', Path: 'x-jws-signature' },
    ]);
  });

  it('a one-byte change to the body is UK.OBIE.Signature.Invalid', async () => {
    const signature = await signAsRequester('northwind', copBody(), { iat: iatNow(rt) });
    await refused(
      await rt.call('POST', PATH, copBody({ Name: 'Samantha Holdes' }), { headers: strictHeaders(signature) }),
      'UK.OBIE.Signature.Invalid',
    );
  });

  it('a kid the client did not register is InvalidClaim at kid, and so is another client’s key', async () => {
    const text = copBody();
    const wrongKid = await signAsRequester('northwind', text, { iat: iatNow(rt), kid: 'nope' });
    const json = await refused(
      await rt.call('POST', PATH, text, { headers: strictHeaders(wrongKid) }),
      'UK.OBIE.Signature.InvalidClaim',
      'kid',
    );
    expect(json.Errors[0].Message).toMatch(new RegExp(`registered: .*${REQUESTER_TEST_KEYS.northwind.key_id}`));
    const harbours = await signAsRequester('harbour', text, { iat: iatNow(rt), iss: NW });
    await refused(
      await rt.call('POST', PATH, text, { headers: strictHeaders(harbours) }),
      'UK.OBIE.Signature.InvalidClaim',
      'kid',
    );
  });

  it('a client without registered keys is told so at kid', async () => {
    const text = copBody();
    const signature = await signAsRequester('northwind', text, { iat: iatNow(rt) });
    const json = await refused(
      await rt.call('POST', PATH, text, { client: FENWICK, headers: strictHeaders(signature) }),
      'UK.OBIE.Signature.InvalidClaim',
      'kid',
    );
    expect(json.Errors[0].Message).toContain(
      'client fenwick-dev (b3d4e5f6-1a2b-4c3d-9e8f-7a6b5c4d3e2f) has no registered public keys',
    );
  });

  it('a future iat is InvalidClaim at http://openbanking.org.uk/iat', async () => {
    const text = copBody();
    const signature = await signAsRequester('northwind', text, { iat: iatNow(rt) + 3600 });
    await refused(
      await rt.call('POST', PATH, text, { headers: strictHeaders(signature) }),
      'UK.OBIE.Signature.InvalidClaim',
      OB_IAT,
    );
  });

  it('an iss that is not the requesting client’s is InvalidClaim at http://openbanking.org.uk/iss', async () => {
    const text = copBody();
    for (const iss of ['0015800000jf9GgAAI', `${NW}/`, `${NW}/a/b`, `${NW}x`]) {
      const signature = await signAsRequester('northwind', text, { iat: iatNow(rt), iss });
      await refused(
        await rt.call('POST', PATH, text, { headers: strictHeaders(signature) }),
        'UK.OBIE.Signature.InvalidClaim',
        OB_ISS,
      );
    }
    // Harbour signs as Harbour with its own key.
    const harbour = await signAsRequester('harbour', text, { iat: iatNow(rt) });
    expect((await rt.call('POST', PATH, text, { client: HARBOUR, headers: strictHeaders(harbour) })).status).toBe(200);
  });

  it('a 3.1.3 signature (b64 false) is InvalidClaim at b64 under the default profile 3.1.4, and accepted under 3.1.3', async () => {
    const text = copBody();
    const signature = await signAsRequester('northwind', text, { iat: iatNow(rt), profile: '3.1.3' });
    await refused(
      await rt.call('POST', PATH, text, { headers: strictHeaders(signature) }),
      'UK.OBIE.Signature.InvalidClaim',
      'b64',
    );
    const old = await testRuntime({ copStrict: true, jwsProfile: '3.1.3' });
    const ok = await old.call('POST', PATH, text, {
      headers: strictHeaders(await signAsRequester('northwind', text, { iat: iatNow(old), profile: '3.1.3' })),
    });
    expect(ok.status).toBe(200);
    const current = await signAsRequester('northwind', text, { iat: iatNow(old) });
    const res = await old.call('POST', PATH, text, { headers: strictHeaders(current) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).Errors[0]).toMatchObject({
      ErrorCode: 'UK.OBIE.Signature.MissingClaim',
      Path: 'b64',
    });
  });

  it('a signature that is not header..signature is UK.OBIE.Signature.Malformed', async () => {
    await refused(
      await rt.call('POST', PATH, copBody(), { headers: strictHeaders('e30..c2ln') }),
      'UK.OBIE.Signature.MissingClaim',
      'alg',
    );
    await refused(
      await rt.call('POST', PATH, copBody(), { headers: strictHeaders('not-a-jws') }),
      'UK.OBIE.Signature.Malformed',
    );
  });

  it('checks the signature before the body: a signed malformed body is 400 InvalidFormat, an unsigned one Signature', async () => {
    const signature = await signAsRequester('northwind', '{', { iat: iatNow(rt) });
    const res = await rt.call('POST', PATH, '{', { headers: strictHeaders(signature) });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-scheme-sim-jws')).toBe('valid');
    expect(((await res.json()) as any).Errors[0].ErrorCode).toBe('UK.OBIE.Resource.InvalidFormat');
  });

  it('with --auth off, finds the key by kid among all clients and checks iss against its owner', async () => {
    const open = await testRuntime({ copStrict: true, auth: 'off' });
    const text = copBody();
    const signature = await signAsRequester('harbour', text, { iat: iatNow(open) });
    const res = await open.app.request(PATH, {
      method: 'POST',
      body: text,
      headers: { 'content-type': 'application/json', ...strictHeaders(signature) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-scheme-sim-jws')).toBe('valid');
  });
});
