// Standard Webhooks (https://www.standardwebhooks.com), the optional HMAC signature of a webhook:
// the secret's format, the signature, and its check. Delivery signs with it, the domain checks a
// subscription's secret with it, and the receiver's verifyWebhook (src/client) checks with it.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A secret is `whsec_` followed by base64 of 24–64 random bytes. */
const SECRET_PREFIX = 'whsec_';
const SECRET_RE = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** Why a secret is unusable, or undefined when it is fine. */
export function secretProblem(secret: string): string | undefined {
  if (!SECRET_RE.test(secret)) return `must be "${SECRET_PREFIX}" followed by base64 (Standard Webhooks format)`;
  const bytes = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64').length;
  if (bytes < 24 || bytes > 64) return `must encode 24 to 64 bytes, got ${bytes}`;
  return undefined;
}

/** The HMAC key of a secret: the base64 after `whsec_`. */
function key(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The signature of one message: `v1,` + base64(HMAC-SHA256(key, "id.timestamp.body")). */
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
