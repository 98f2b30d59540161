import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { REQUESTER_TEST_KEYS } from '../../src/harness/cop-keys.ts';
import { verifyIndependently } from '../../src/harness/independent-jws.ts';
import { signCopRequest } from '../../src/index.ts';
import {
  answeringParticipant,
  bundledRequester,
  jwksUrlOf,
  nameVerificationParticipant,
  requesterFromSettings,
  simulatorRequester,
} from './cop-requester.ts';

const dir = mkdtempSync(join(tmpdir(), 'cop-requester-'));
const pem = join(dir, 'key.pem');
writeFileSync(pem, REQUESTER_TEST_KEYS.harbour.private_key);

describe('the requester identity of a target', () => {
  it('is the bundled development key on a simulator, and its signature verifies with the registered public key', async () => {
    const r = bundledRequester();
    expect(r).toMatchObject({
      kid: '0d3f8c5e-2b7a-4f1d-9c6e-5a4b3c2d1e0f',
      iss: '0015800001041REAAY',
      profile: '3.1.4',
    });
    const body = '{"Data":{}}';
    const signature = await signCopRequest(body, r.key, { kid: r.kid, iss: r.iss });
    // Against the public key fixtures/clients.json registers under that kid: the pair is one.
    const clients = JSON.parse(readFileSync(new URL('../../fixtures/clients.json', import.meta.url), 'utf8')) as Array<{
      public_keys?: Array<{ key_id: string; public_key: string }>;
    }>;
    const registered = clients.flatMap((c) => c.public_keys ?? []).find((k) => k.key_id === r.kid)!;
    const jwk = { ...(await exportJWK(createPublicKey(registered.public_key))), kid: r.kid };
    expect(() => verifyIndependently(signature, Buffer.from(body), jwk)).not.toThrow();
  });

  it('comes from the settings, iss defaulting to the CoP participant', () => {
    const r = requesterFromSettings({
      CONFORMANCE_COP_SIGNING_KEY: pem,
      CONFORMANCE_COP_SIGNING_KID: 'harbour-cop-1',
      CONFORMANCE_COP_PARTICIPANT_ID: '0015800000jf9GgAAI',
      CONFORMANCE_COP_JWS_PROFILE: '3.1.3',
    });
    expect(r).toMatchObject({ kid: 'harbour-cop-1', iss: '0015800000jf9GgAAI', profile: '3.1.3' });
    expect(requesterFromSettings({})).toBeUndefined();
  });

  it('names the setting that is missing, unreadable or of the wrong form', () => {
    expect(() => requesterFromSettings({ CONFORMANCE_COP_SIGNING_KEY: pem })).toThrow(/CONFORMANCE_COP_SIGNING_KID/);
    expect(() => requesterFromSettings({ CONFORMANCE_COP_SIGNING_KID: 'k' })).toThrow(/CONFORMANCE_COP_SIGNING_KEY/);
    expect(() =>
      requesterFromSettings({ CONFORMANCE_COP_SIGNING_KEY: join(dir, 'nope.pem'), CONFORMANCE_COP_SIGNING_KID: 'k' }),
    ).toThrow(/CONFORMANCE_COP_SIGNING_KEY .*nope\.pem cannot be read/);
    const pub = join(dir, 'pub.pem');
    writeFileSync(pub, REQUESTER_TEST_KEYS.harbour.public_key);
    expect(() => requesterFromSettings({ CONFORMANCE_COP_SIGNING_KEY: pub, CONFORMANCE_COP_SIGNING_KID: 'k' })).toThrow(
      /not a PKCS#8 PEM private key/,
    );
    expect(() => requesterFromSettings({ CONFORMANCE_COP_SIGNING_KEY: pem, CONFORMANCE_COP_SIGNING_KID: 'k' })).toThrow(
      /CONFORMANCE_COP_SIGNING_ISS/,
    );
    expect(() => simulatorRequester({ CONFORMANCE_COP_JWS_PROFILE: '3.2' })).toThrow(/CONFORMANCE_COP_JWS_PROFILE/);
  });

  it('finds the JWKS where CONFORMANCE_COP_JWKS_URL says, by default under the base URL', () => {
    expect(jwksUrlOf({})('http://h', 'P1')).toBe('http://h/v1/participants/P1/jwks.json');
    expect(jwksUrlOf({ CONFORMANCE_COP_JWKS_URL: 'https://keys.example/{participant}.json' })('http://h', 'P1')).toBe(
      'https://keys.example/P1.json',
    );
    expect(jwksUrlOf({ CONFORMANCE_COP_JWKS_URL: '{base}/jwks/{participant}' })('http://h', 'P1')).toBe(
      'http://h/jwks/P1',
    );
    expect(() => jwksUrlOf({ CONFORMANCE_COP_JWKS_URL: 'keys/{participant}' })).toThrow(/CONFORMANCE_COP_JWKS_URL/);
  });
});

describe('which paths are a participant’s', () => {
  it('signs only name-verification requests, and checks every answer under a participant but its JWKS', () => {
    expect(nameVerificationParticipant('/v1/participants/P1/open-banking/v3.1/accounts/name-verification')).toBe('P1');
    expect(nameVerificationParticipant('/v1/participants/P1/jwks.json')).toBeUndefined();
    expect(nameVerificationParticipant('/v1/organisation/accounts')).toBeUndefined();
    expect(answeringParticipant('/v1/participants/P1/open-banking/v3.1/other')).toBe('P1');
    expect(answeringParticipant('/v1/participants/P1/jwks.json')).toBeUndefined();
  });
});
