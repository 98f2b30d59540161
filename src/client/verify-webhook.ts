// The receiver's check of a Standard Webhooks signature, on the request as it arrived: what a
// client of the simulator runs, exported by the package (the format is src/signatures/notifications).
import { verify } from '../signatures/notifications/standard-webhooks.ts';

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
