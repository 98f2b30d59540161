import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { opensslAccepts } from '../../../test/support/openssl-verify.ts';
import { verifyForm3Notification } from '../../client/verify-form3-notification.ts';
import { digestOf } from '../cavage.ts';
import { form3SignatureHeaders } from './form3-notification-signature.ts';

// Notifications signed as Form3 signs them, checked by the shipped verifier and, independently, by
// openssl over the draft's signing string.

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = pair();
const other = pair();
const KEY_ID = '2b0e6f9a-1c3d-4e5f-8a9b-0c1d2e3f4a5b';
const signer = { id: KEY_ID, privateKey: key.privateKey };
const URI = 'https://receiver.example.test/hooks/form3?x=1';
const BODY = JSON.stringify({ id: 'n-1', event_type: 'created', data: { data: { id: 'a-1' } } });
const NOW = new Date('2026-11-25T12:00:00Z');

function received(body = BODY, headers = form3SignatureHeaders(URI, BODY, signer, NOW)) {
  return {
    method: 'POST',
    url: '/hooks/form3?x=1',
    headers: {
      host: 'receiver.example.test',
      'content-type': 'application/json',
      date: headers.date,
      digest: headers.digest,
      signature: headers.signature,
    },
    body,
  };
}
const fetchKey = (pem: string) => async () => pem;
const pemOf = (k: typeof key) => k.publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe("Form3's notification signature", () => {
  it('names its key, covers (request-target) host date digest content-type, and digests the body', () => {
    const h = form3SignatureHeaders(URI, BODY, signer, NOW);
    expect(h.date).toBe('Wed, 25 Nov 2026 12:00:00 GMT');
    expect(h.digest).toBe(digestOf(BODY));
    expect(h.signature).toMatch(
      new RegExp(
        `^keyId="${KEY_ID}",algorithm="rsa-sha256",headers="\\(request-target\\) host date digest content-type",signature="[A-Za-z0-9+/=]+"$`,
      ),
    );
  });

  it('is accepted by the shipped verifier and by openssl', async () => {
    await expect(verifyForm3Notification(received(), fetchKey(pemOf(key)), { now: NOW })).resolves.toEqual({
      keyId: KEY_ID,
    });
    expect(opensslAccepts(received(), pemOf(key))).toBe(true);
  });

  it('a one-byte change of the body fails both', async () => {
    const tampered = received(BODY.replace('a-1', 'a-2'));
    await expect(verifyForm3Notification(tampered, fetchKey(pemOf(key)), { now: NOW })).rejects.toThrow(
      'the Digest does not match the body',
    );
    expect(opensslAccepts(tampered, pemOf(key))).toBe(false);
  });

  it('a wrong key fails both', async () => {
    await expect(verifyForm3Notification(received(), fetchKey(pemOf(other)), { now: NOW })).rejects.toThrow(
      `the signature does not verify with key ${KEY_ID}`,
    );
    expect(opensslAccepts(received(), pemOf(other))).toBe(false);
  });

  it('a stale date, a missing signature or a changed path fail the shipped verifier', async () => {
    const later = new Date(NOW.getTime() + 6 * 60_000);
    await expect(verifyForm3Notification(received(), fetchKey(pemOf(key)), { now: later })).rejects.toThrow(
      'more than 5 minutes',
    );
    const unsigned = received();
    const { signature: _, ...headers } = unsigned.headers;
    await expect(verifyForm3Notification({ ...unsigned, headers }, fetchKey(pemOf(key)), { now: NOW })).rejects.toThrow(
      'not signed',
    );
    await expect(
      verifyForm3Notification({ ...received(), url: '/hooks/other?x=1' }, fetchKey(pemOf(key)), { now: NOW }),
    ).rejects.toThrow('does not verify');
  });

  it('verifies a web Request as well', async () => {
    const h = form3SignatureHeaders(URI, BODY, signer, NOW);
    const request = new Request(URI, {
      method: 'POST',
      headers: { 'content-type': 'application/json', date: h.date, digest: h.digest, signature: h.signature },
      body: BODY,
    });
    await expect(verifyForm3Notification(request, fetchKey(pemOf(key)), { now: NOW })).resolves.toEqual({
      keyId: KEY_ID,
    });
  });
});
