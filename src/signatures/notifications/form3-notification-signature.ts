// How a notification is signed as Form3 signs them: the headers a webhook's signature covers, and
// the date and digest a queue message's covers. Delivery signs with it; the receiver's check is
// src/client/verify-form3-notification.ts.
import type { KeyObject } from 'node:crypto';
import { digestOf, formatSignature, requestTarget, signingString, signText } from '../cavage.ts';

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

interface SigningKey {
  id: string;
  privateKey: KeyObject;
}

/** Signs the headers' values (date and digest among them) with the key. */
function signed(headers: readonly string[], values: Record<string, string>, key: SigningKey): SignedHeaders {
  const signature = signText(
    signingString(headers, (h) => values[h]),
    key.privateKey,
  );
  return {
    date: values.date!,
    digest: values.digest!,
    signature: formatSignature({ keyId: key.id, headers, signature }),
  };
}

/** The headers that sign a POST of `body` (JSON) to `uri` with the key. */
export function form3SignatureHeaders(uri: string, body: string, key: SigningKey, now: Date): SignedHeaders {
  const url = new URL(uri);
  return signed(
    SIGNED_HEADERS,
    {
      '(request-target)': requestTarget('POST', `${url.pathname}${url.search}`),
      host: url.host,
      date: now.toUTCString(),
      digest: digestOf(body),
      'content-type': 'application/json',
    },
    key,
  );
}

const QUEUE_SIGNED_HEADERS = ['date', 'digest'] as const;

/**
 * What signs a queue message, where there is no request: `date digest` of the body, in message
 * attributes (a later version of Form3's page says it signs SQS messages too; how is not public).
 */
export function queueSignature(body: string, key: SigningKey, now: Date): SignedHeaders {
  return signed(QUEUE_SIGNED_HEADERS, { date: now.toUTCString(), digest: digestOf(body) }, key);
}
