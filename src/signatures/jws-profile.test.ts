import { createPrivateKey, createPublicKey } from 'node:crypto';
import { createLocalJWKSet, FlattenedSign, flattenedVerify, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { REQUESTER_TEST_KEYS } from '../harness/cop-keys.ts';
import { handMadeJws, verifyIndependently } from '../harness/independent-jws.ts';
import {
  type JwsExpectations,
  JwsProblem,
  type JwsProfile,
  OB_IAT,
  OB_ISS,
  OB_TAN,
  protectedHeader,
  signDetached,
  verifyDetached,
} from './jws-profile.ts';

const KEY = REQUESTER_TEST_KEYS.northwind;
const PRIVATE = createPrivateKey(KEY.private_key);
const PUBLIC = createPublicKey(KEY.public_key);
const JWK_PUBLIC = { ...PUBLIC.export({ format: 'jwk' }), kid: KEY.key_id, alg: 'PS256', use: 'sig' } as JWK;
const NOW = Date.parse('2026-12-21T09:00:00Z');
const IAT = Math.floor(NOW / 1000) - 60;
const BODY = Buffer.from('{"Data":{"VerificationReport":{"Matched":true}},"Links":{"Self":"/x"},"Meta":{}}');
const CLAIMS = { kid: KEY.key_id, iss: '0015800001041REAAY', iat: IAT };

const expectations = (profile: JwsProfile = '3.1.4', over: Partial<JwsExpectations> = {}): JwsExpectations => ({
  profile,
  keyFor: (kid) => (kid === KEY.key_id ? PUBLIC : `kid ${kid} is unknown`),
  issuerProblem: (iss) => (iss === CLAIMS.iss ? undefined : `iss ${iss} is not ${CLAIMS.iss}`),
  now: NOW,
  skewSeconds: 30,
  ...over,
});

/** The JwsProblem a verification rejects with (fails the test when it resolves). */
async function problemOf(promise: Promise<unknown>): Promise<JwsProblem> {
  const err = await promise.then(
    () => {
      throw new Error('expected the signature to be refused');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(JwsProblem);
  return err as JwsProblem;
}

const oneByteChanged = (body: Buffer) => {
  const copy = Buffer.from(body);
  copy[copy.length - 3]! ^= 0x01;
  return copy;
};

describe('the Open Banking detached JWS (x-jws-signature)', () => {
  it('3.1.4: signs base64url(body) with the profile header, and jose and node:crypto both verify it', async () => {
    const signature = await signDetached(BODY, PRIVATE, '3.1.4', CLAIMS);
    const [encodedHeader, empty, encodedSignature] = signature.split('.');
    expect(empty).toBe('');
    expect(JSON.parse(Buffer.from(encodedHeader!, 'base64url').toString())).toEqual({
      alg: 'PS256',
      kid: KEY.key_id,
      typ: 'JOSE',
      cty: 'application/json',
      [OB_IAT]: IAT,
      [OB_ISS]: CLAIMS.iss,
      [OB_TAN]: 'openbanking.org.uk',
      crit: [OB_IAT, OB_ISS, OB_TAN],
    });
    // jose's own verifier, with the key found in a JWKS by kid.
    const verified = await flattenedVerify(
      { protected: encodedHeader!, signature: encodedSignature!, payload: BODY.toString('base64url') },
      createLocalJWKSet({ keys: [JWK_PUBLIC] }),
      { algorithms: ['PS256'], crit: { [OB_IAT]: true, [OB_ISS]: true, [OB_TAN]: true } },
    );
    expect(Buffer.from(verified.payload).equals(BODY)).toBe(true);
    expect(verifyIndependently(signature, BODY, JWK_PUBLIC as Record<string, unknown>)[OB_ISS]).toBe(CLAIMS.iss);
    expect(await verifyDetached(signature, BODY, expectations())).toMatchObject({ kid: KEY.key_id, [OB_IAT]: IAT });
  });

  it('3.1.3: b64 false and b64 in crit, the raw body signed; jose verifies it with the bytes as they are', async () => {
    const signature = await signDetached(BODY, PRIVATE, '3.1.3', CLAIMS);
    const header = protectedHeader('3.1.3', CLAIMS);
    expect(header).toMatchObject({ b64: false, crit: ['b64', OB_IAT, OB_ISS, OB_TAN] });
    const [encodedHeader, , encodedSignature] = signature.split('.');
    await flattenedVerify({ protected: encodedHeader!, signature: encodedSignature!, payload: BODY }, PUBLIC, {
      crit: { [OB_IAT]: true, [OB_ISS]: true, [OB_TAN]: true },
    });
    verifyIndependently(signature, BODY, JWK_PUBLIC as Record<string, unknown>);
    await verifyDetached(signature, BODY, expectations('3.1.3'));
  });

  it('a 3.1.3 signature fails a 3.1.4 verifier at b64, and a 3.1.4 one fails a 3.1.3 verifier', async () => {
    const old = await signDetached(BODY, PRIVATE, '3.1.3', CLAIMS);
    expect(await problemOf(verifyDetached(old, BODY, expectations('3.1.4')))).toMatchObject({
      code: 'UK.OBIE.Signature.InvalidClaim',
      path: 'b64',
    });
    const current = await signDetached(BODY, PRIVATE, '3.1.4', CLAIMS);
    expect(await problemOf(verifyDetached(current, BODY, expectations('3.1.3')))).toMatchObject({
      code: 'UK.OBIE.Signature.MissingClaim',
      path: 'b64',
    });
  });

  it.each(['3.1.4', '3.1.3'] as const)(
    '%s: a one-byte change to the body is UK.OBIE.Signature.Invalid',
    async (profile) => {
      const signature = await signDetached(BODY, PRIVATE, profile, CLAIMS);
      const p = await problemOf(verifyDetached(signature, oneByteChanged(BODY), expectations(profile)));
      expect(p.code).toBe('UK.OBIE.Signature.Invalid');
      expect(() =>
        verifyIndependently(signature, oneByteChanged(BODY), JWK_PUBLIC as Record<string, unknown>),
      ).toThrow();
    },
  );

  it('a kid the verifier has no key for is InvalidClaim at kid; a key that is not the signer’s is Invalid', async () => {
    const wrongKid = await signDetached(BODY, PRIVATE, '3.1.4', { ...CLAIMS, kid: 'not-registered' });
    expect(await problemOf(verifyDetached(wrongKid, BODY, expectations()))).toMatchObject({
      code: 'UK.OBIE.Signature.InvalidClaim',
      path: 'kid',
      message: 'kid not-registered is unknown',
    });
    const otherKey = createPrivateKey(REQUESTER_TEST_KEYS.harbour.private_key);
    const signedByOther = await signDetached(BODY, otherKey, '3.1.4', CLAIMS);
    expect((await problemOf(verifyDetached(signedByOther, BODY, expectations()))).code).toBe(
      'UK.OBIE.Signature.Invalid',
    );
  });

  it('an iat in the future is InvalidClaim at the iat claim; within the allowed skew it passes', async () => {
    const future = await signDetached(BODY, PRIVATE, '3.1.4', { ...CLAIMS, iat: Math.floor(NOW / 1000) + 3600 });
    expect(await problemOf(verifyDetached(future, BODY, expectations()))).toMatchObject({
      code: 'UK.OBIE.Signature.InvalidClaim',
      path: OB_IAT,
    });
    const skewed = await signDetached(BODY, PRIVATE, '3.1.4', { ...CLAIMS, iat: Math.floor(NOW / 1000) + 10 });
    await verifyDetached(skewed, BODY, expectations());
    const asText = handMadeJws({ ...protectedHeader('3.1.4', CLAIMS), [OB_IAT]: String(IAT) }, BODY, PRIVATE);
    expect(await problemOf(verifyDetached(asText, BODY, expectations()))).toMatchObject({
      code: 'UK.OBIE.Signature.InvalidClaim',
      path: OB_IAT,
    });
  });

  it('an extra crit entry, or one missing, is InvalidClaim at crit', async () => {
    const extra = await new FlattenedSign(BODY)
      .setProtectedHeader({
        ...protectedHeader('3.1.4', CLAIMS),
        'urn:example:extra': 1,
        crit: [OB_IAT, OB_ISS, OB_TAN, 'urn:example:extra'],
      } as unknown as { alg: string })
      .sign(PRIVATE, { crit: { [OB_IAT]: true, [OB_ISS]: true, [OB_TAN]: true, 'urn:example:extra': true } });
    const p = await problemOf(verifyDetached(`${extra.protected}..${extra.signature}`, BODY, expectations()));
    expect(p).toMatchObject({ code: 'UK.OBIE.Signature.InvalidClaim', path: 'crit' });
    expect(p.message).toContain('extra urn:example:extra');
    const short = handMadeJws({ ...protectedHeader('3.1.4', CLAIMS), crit: [OB_IAT, OB_ISS] }, BODY, PRIVATE);
    expect(await problemOf(verifyDetached(short, BODY, expectations()))).toMatchObject({
      code: 'UK.OBIE.Signature.InvalidClaim',
      path: 'crit',
    });
  });

  it.each([
    ['kid', 'kid'],
    [OB_IAT, OB_IAT],
    [OB_ISS, OB_ISS],
    [OB_TAN, OB_TAN],
    ['crit', 'crit'],
    ['alg', 'alg'],
  ])('a header without %s is MissingClaim with Path %s', async (claim, path) => {
    const header = protectedHeader('3.1.4', CLAIMS);
    delete header[claim];
    const p = await problemOf(verifyDetached(handMadeJws(header, BODY, PRIVATE), BODY, expectations()));
    expect(p).toMatchObject({ code: 'UK.OBIE.Signature.MissingClaim', path });
  });

  it.each([
    ['alg RS256', { alg: 'RS256' }, 'alg'],
    ['typ JWT', { typ: 'JWT' }, 'typ'],
    ['cty text/plain', { cty: 'text/plain' }, 'cty'],
    ['another iss', { [OB_ISS]: 'someone-else' }, OB_ISS],
    ['an untrusted tan', { [OB_TAN]: 'example.com' }, OB_TAN],
    ['an empty kid', { kid: '' }, 'kid'],
  ])('%s is InvalidClaim at its claim', async (_what, change, path) => {
    const header = { ...protectedHeader('3.1.4', CLAIMS), ...change };
    const p = await problemOf(verifyDetached(handMadeJws(header, BODY, PRIVATE), BODY, expectations()));
    expect(p).toMatchObject({ code: 'UK.OBIE.Signature.InvalidClaim', path });
  });

  it('no signature is Missing; anything but header..signature, or a header that is not JSON, is Malformed', async () => {
    expect((await problemOf(verifyDetached(undefined, BODY, expectations()))).code).toBe('UK.OBIE.Signature.Missing');
    expect((await problemOf(verifyDetached('  ', BODY, expectations()))).code).toBe('UK.OBIE.Signature.Missing');
    const signature = await signDetached(BODY, PRIVATE, '3.1.4', CLAIMS);
    const [h, , s] = signature.split('.');
    for (const bad of [
      'abc',
      `${h}.${BODY.toString('base64url')}.${s}`,
      `${h}..`,
      `..${s}`,
      `${h}..${s}.x`,
      `e30x..${s}`,
    ])
      expect((await problemOf(verifyDetached(bad, BODY, expectations()))).code, bad).toBe(
        'UK.OBIE.Signature.Malformed',
      );
  });
});
