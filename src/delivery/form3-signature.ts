import { type KeyObject, sign } from 'node:crypto';
import { digestOf, signingString } from '../signatures/cavage.ts';

/**
 * Notifications signed as Form3 signs them (tutorial "Verifying notification headers"; draft
 * "Signing HTTP Requests", the cavage draft Form3's SDK also signs requests with): RSA-SHA256 over
 * `(request-target) host date digest content-type`, the key id in the header, `Digest` the body's
 * SHA-256. Form3 does not publish its header names; the draft's `Signature` header is used (decision 012).
 */
export const SIGNED_HEADERS = ['(request-target)', 'host', 'date', 'digest', 'content-type'] as const;

export interface SignedHeaders {
  date: string;
  digest: string;
  signature: string;
}

/** The headers that sign a POST of `body` (JSON) to `uri` with the key. */
export function form3SignatureHeaders(
  uri: string,
  body: string,
  key: { id: string; privateKey: KeyObject },
  now: Date,
): SignedHeaders {
  const date = now.toUTCString();
  const digest = digestOf(body);
  const text = signingString('POST', new URL(uri), { date, digest, contentType: 'application/json' });
  const signature = sign('sha256', Buffer.from(text), key.privateKey).toString('base64');
  return {
    date,
    digest,
    signature: `keyId="${key.id}",algorithm="rsa-sha256",headers="${SIGNED_HEADERS.join(' ')}",signature="${signature}"`,
  };
}

/**
 * What signs a queue message, where there is no request: `date digest` of the body, in message
 * attributes (a later version of Form3's page says it signs SQS messages too; how is not public).
 */
export function queueSignature(body: string, key: { id: string; privateKey: KeyObject }, now: Date): SignedHeaders {
  const date = now.toUTCString();
  const digest = digestOf(body);
  const signature = sign('sha256', Buffer.from(`date: ${date}\ndigest: ${digest}`), key.privateKey).toString('base64');
  return {
    date,
    digest,
    signature: `keyId="${key.id}",algorithm="rsa-sha256",headers="date digest",signature="${signature}"`,
  };
}
