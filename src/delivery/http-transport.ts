// Webhook delivery: one POST of a notification to a subscriber's URL, and what its answer (or its
// silence) means for retrying.
import type { SignedHeaders } from '../signatures/notifications/form3-notification-signature.ts';
import { signatureHeaders } from '../signatures/notifications/standard-webhooks.ts';
import type { AttemptOutcome } from '../sim/notifications/outbox.ts';

export const USER_AGENT = 'scheme-sim';
export const DEFAULT_HTTP_TIMEOUT_MS = 10_000;

/** Thrown when the worker stops mid-attempt: the attempt is not recorded and runs again later. */
export class DeliveryInterrupted extends Error {}

export interface WebhookRequest {
  uri: string;
  id: string;
  body: string;
  /** Standard Webhooks secret, for its headers as well. */
  secret?: string;
  /** Form3's signature headers (src/signatures/notifications/form3-notification-signature.ts): Date, Digest, Signature. */
  form3?: SignedHeaders;
  /** Wall time, for webhook-timestamp. */
  now: Date;
  timeoutMs: number;
  /** Aborted when the worker stops. */
  signal: AbortSignal;
}

/** The most of an answer's body read for an error message; the rest is never read. */
export const MAX_ERROR_BODY_BYTES = 1024;
/** How much of that prefix an error message quotes. */
const MAX_ERROR_BODY_CHARS = 200;

/**
 * Reads at most `maxBytes` of a body through its reader, then cancels the stream, so a huge (or
 * endless) answer costs no more than that. Decoding errors and a body cut mid-character are fine.
 */
export async function readBodyPrefix(
  body: ReadableStream<Uint8Array> | null,
  maxBytes = MAX_ERROR_BODY_BYTES,
): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = value.subarray(0, maxBytes - size);
      chunks.push(take);
      size += take.byteLength;
    }
  } catch {
    // A body that breaks off leaves what was read.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Codes undici gives a request that died on a connection the other side had already closed. */
const STALE_CONNECTION_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

export function isStaleConnection(err: unknown): boolean {
  const code = (err as { cause?: { code?: string } }).cause?.code;
  return code !== undefined && STALE_CONNECTION_CODES.has(code);
}

function describeCause(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return cause?.message ?? (err as Error).message;
}

/**
 * POSTs a notification. 2xx is success; 410 says the subscriber is gone; anything else (another
 * status, a timeout, a connection failure) is a failure to retry. Redirects are not followed.
 */
export async function postWebhook(req: WebhookRequest): Promise<AttemptOutcome> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
  if (req.secret) Object.assign(headers, signatureHeaders(req.secret, req.id, req.now, req.body));
  else headers['webhook-id'] = req.id;
  if (req.form3)
    Object.assign(headers, { date: req.form3.date, digest: req.form3.digest, signature: req.form3.signature });
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = AbortSignal.any([req.signal, timeout]);
  try {
    const init: RequestInit = { method: 'POST', headers, body: req.body, redirect: 'manual', signal };
    const res = await fetch(req.uri, init).catch((err: unknown) => {
      // A keep-alive connection the receiver closed while it sat idle fails the next request on it
      // before a byte of answer: sent again at once, on a new connection. Only that failure, only
      // once: delivery is at-least-once anyway, and every other failure waits for the retry schedule.
      if (signal.aborted || !isStaleConnection(err)) throw err;
      return fetch(req.uri, init);
    });
    if (res.status >= 200 && res.status < 300) {
      // The answer's body means nothing to a delivery: never read, the stream is dropped.
      await res.body?.cancel().catch(() => undefined);
      return { ok: true, response_code: res.status };
    }
    if (res.status === 410) {
      await res.body?.cancel().catch(() => undefined);
      return {
        ok: false,
        response_code: 410,
        error_category: 'subscription_gone',
        error_message: 'callback answered 410 Gone; subscription deactivated',
      };
    }
    const text = (await readBodyPrefix(res.body)).slice(0, MAX_ERROR_BODY_CHARS);
    return {
      ok: false,
      response_code: res.status,
      error_category: 'http_error',
      error_message: `callback answered ${res.status}${text ? `: ${text}` : ''}`,
    };
  } catch (err) {
    if (req.signal.aborted) throw new DeliveryInterrupted('delivery interrupted: the worker stopped');
    if (timeout.aborted)
      return {
        ok: false,
        response_code: null,
        error_category: 'timeout',
        error_message: `no response within ${req.timeoutMs} ms`,
      };
    return {
      ok: false,
      response_code: null,
      error_category: 'connection_error',
      error_message: `connection failed: ${describeCause(err)}`,
    };
  }
}
