import { createPublicKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CAVAGE_VECTORS, type CavageVector } from '../../test/support/cavage-vectors.ts';
import { DEV_SIGNING_KEY_ID, devSigningKey } from '../../test/support/dev-signing-key.ts';
import { opensslDigest, opensslVerifies } from '../../test/support/openssl-verify.ts';
import { ReplayCache, type SignedRequest, verifySignedRequest } from '../api/auth/http-signature.ts';
import { form3SignedHeaders } from '../client/form3-request-signer.ts';
import { verifyForm3Notification } from '../client/verify-form3-notification.ts';
import { parseSignature } from './cavage.ts';
import { form3SignatureHeaders } from './notifications/form3-notification-signature.ts';

// Both directions of Form3's HTTP signature over the same vectors (test/support/cavage-vectors.ts,
// signing strings written by hand): a request signed as the Go SDK signs it, checked by api/auth;
// a notification signed by delivery, checked by the client-side verifier. Each signer's output is
// checked by openssl against the hand-written string, and each verifier accepts a signature made
// over that string without the code under test.

const privateKey = devSigningKey();
const publicKey = createPublicKey(privateKey);
const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const CALLER = { organisationId: 'org-1', clientId: 'client-1' };
const keys = { keyOf: (id: string) => (id === DEV_SIGNING_KEY_ID ? { caller: CALLER, key: publicKey } : undefined) };

/** rsa-sha256 of a hand-written signing string, by node:crypto alone. */
const signByHand = (text: string) => sign('sha256', Buffer.from(text), privateKey).toString('base64');
const signatureOf = (header: string) => parseSignature(header).signature ?? '';

/** The request as api/auth sees it, with these headers (names in any case) and body, as fetch sends it. */
function incoming(v: CavageVector, headers: Record<string, string>, body = v.body): SignedRequest {
  const url = new URL(v.url);
  const lower: Record<string, string> = { 'content-length': String(Buffer.byteLength(body)) };
  for (const [k, val] of Object.entries(headers)) lower[k.toLowerCase()] = val;
  return {
    method: 'POST',
    target: `${url.pathname}${url.search}`,
    header: (name) => (name === 'host' ? url.host : lower[name]),
    body,
  };
}

/** The notification as a receiver holds it. */
function notification(v: CavageVector, h: { date: string; digest: string; signature: string }, body = v.body) {
  const url = new URL(v.url);
  return {
    method: 'POST',
    url: `${url.pathname}${url.search}`,
    headers: { host: url.host, 'content-type': 'application/json', ...h },
    body,
  };
}

describe.each(CAVAGE_VECTORS)('the cavage signature, both directions: $name', (v) => {
  it('requests: the SDK-style signer signs the hand-written string (openssl agrees), api/auth accepts it', () => {
    const headers = form3SignedHeaders(new URL(v.url), 'POST', v.body, DEV_SIGNING_KEY_ID, privateKey, v.at);
    expect(headers.Digest).toBe(opensslDigest(v.body));
    expect(opensslVerifies(v.sdkSigningString, signatureOf(headers.Authorization!), pem)).toBe(true);
    expect(verifySignedRequest(headers.Authorization!, incoming(v, headers), keys, v.at, new ReplayCache())).toEqual(
      CALLER,
    );
  });

  it('requests: api/auth accepts a signature made by hand over the string, and refuses a changed body', () => {
    const authorization = `Signature keyId="${DEV_SIGNING_KEY_ID}",algorithm="rsa-sha256",headers="(request-target) host date content-type digest content-length", signature="${signByHand(v.sdkSigningString)}"`;
    const headers = {
      Date: v.at.toUTCString().replace('GMT', 'UTC'),
      'Content-Type': 'application/vnd.api+json',
      Digest: opensslDigest(v.body),
    };
    expect(verifySignedRequest(authorization, incoming(v, headers), keys, v.at, new ReplayCache())).toEqual(CALLER);
    expect(() =>
      verifySignedRequest(authorization, incoming(v, headers, `${v.body} `), keys, v.at, new ReplayCache()),
    ).toThrow('digest does not match the body');
  });

  it('notifications: delivery signs the hand-written string (openssl agrees), the client verifier accepts it', async () => {
    const h = form3SignatureHeaders(v.url, v.body, { id: DEV_SIGNING_KEY_ID, privateKey }, v.at);
    expect(h.digest).toBe(`SHA-256=${opensslDigest(v.body)}`);
    expect(opensslVerifies(v.notificationSigningString, signatureOf(h.signature), pem)).toBe(true);
    await expect(verifyForm3Notification(notification(v, h), async () => pem, { now: v.at })).resolves.toEqual({
      keyId: DEV_SIGNING_KEY_ID,
    });
  });

  it('notifications: the client verifier accepts a signature made by hand over the string, refuses another path', async () => {
    const h = {
      date: v.at.toUTCString(),
      digest: `SHA-256=${opensslDigest(v.body)}`,
      signature: `keyId="${DEV_SIGNING_KEY_ID}",algorithm="rsa-sha256",headers="(request-target) host date digest content-type",signature="${signByHand(v.notificationSigningString)}"`,
    };
    await expect(verifyForm3Notification(notification(v, h), async () => pem, { now: v.at })).resolves.toEqual({
      keyId: DEV_SIGNING_KEY_ID,
    });
    const elsewhere = { ...notification(v, h), url: '/elsewhere' };
    await expect(verifyForm3Notification(elsewhere, async () => pem, { now: v.at })).rejects.toThrow(
      `the signature does not verify with key ${DEV_SIGNING_KEY_ID}`,
    );
  });
});
