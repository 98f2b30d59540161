// Subscriptions with a secret get Standard Webhooks signatures beside Form3's: signing for the
// sender, and the check a receiver makes, exported by the package.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SECRET_PREFIX } from '../sim/notifications/webhook-secret.ts';

export { secretProblem } from '../sim/notifications/webhook-secret.ts';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): a secret is `whsec_` followed by
 * base64 of 24–64 random bytes; the signature is `v1,` + base64(HMAC-SHA256(key, "id.timestamp.body")).
 */
function key(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The signature of one message: `v1,<base64>`. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', key(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers for a message sent at `at`. */
export function signatureHeaders(secret: string, id: string, at: Date, body: string): WebhookHeaders {
  const ts = Math.floor(at.getTime() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': sign(secret, id, ts, body) };
}

/**
 * What a receiver does: recompute the signature and compare in constant time with each `v1,`
 * entry of the (space-separated) header, and refuse timestamps more than `toleranceSeconds` away.
 */
export function verify(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  now: Date = new Date(),
  toleranceSeconds = 300,
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(now.getTime() / 1000 - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(sign(secret, headers.id, ts, body).slice(3), 'base64');
  return headers.signature.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** What a receiver has: a fetch `Headers`, or Node's `req.headers` (an object of lower-case names). */
export type ReceivedHeaders = Headers | object;

function header(headers: ReceivedHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const v = (headers as Record<string, unknown>)[name];
  if (Array.isArray(v)) return v.join(' ');
  return typeof v === 'string' ? v : undefined;
}

/**
 * The receiver's check, on the request as it arrived: the `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` headers and the raw body. Exported from the library entry for receivers.
 */
export function verifyWebhook(
  secret: string,
  headers: ReceivedHeaders,
  rawBody: string,
  now: Date = new Date(),
): boolean {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signature) return false;
  return verify(secret, { id, timestamp, signature }, rawBody, now);
}
