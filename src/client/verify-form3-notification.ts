// A receiver of notifications needs to know they came from the platform: the verifier the package
// ships for it, usable against the simulator and against Form3 alike.
import { createPublicKey, type KeyObject } from 'node:crypto';
import {
  ALGORITHM,
  DATE_WINDOW_MS,
  digestOf,
  isAlgorithmAccepted,
  MissingSignedHeader,
  parseSignature,
  requestTarget,
  signingString,
  verifyText,
} from '../signatures/cavage.ts';

/** A received notification: a web Request, or its parts (a Node server's). */
export interface ReceivedNotification {
  method?: string;
  /** The URL requested: absolute, or the path and query (the Host header names the host). */
  url: string;
  headers: Headers | Record<string, string | string[] | undefined>;
  body: string | Uint8Array;
}

/** Gives the public key (SPKI PEM, or a KeyObject) of a key id, e.g. from GET /v1/platform/security/signing_keys/{id}. */
export type SigningKeyFetcher = (keyId: string) => Promise<string | KeyObject>;

export class Form3NotificationError extends Error {
  override name = 'Form3NotificationError';
}

const keyCache = new WeakMap<SigningKeyFetcher, Map<string, Promise<KeyObject>>>();

function header(headers: ReceivedNotification['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

function refuse(reason: string): never {
  throw new Form3NotificationError(reason);
}

/**
 * Verifies a notification signed as Form3 signs them (draft "Signing HTTP Requests", RSA-SHA256;
 * docs/notifications.md): the signature over the headers it names, the body's Digest, and a Date
 * within 5 minutes. Keys are fetched once per key id and cached. Resolves to the key id; throws a
 * Form3NotificationError naming what is wrong (reject the notification then).
 */
export async function verifyForm3Notification(
  request: Request | ReceivedNotification,
  fetchKey: SigningKeyFetcher,
  options: { now?: Date } = {},
): Promise<{ keyId: string }> {
  const isRequest = typeof Request !== 'undefined' && request instanceof Request;
  const received: ReceivedNotification = isRequest
    ? {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: new Uint8Array(await request.arrayBuffer()),
      }
    : (request as ReceivedNotification);
  const sig = header(received.headers, 'signature');
  if (!sig) refuse('the notification is not signed (no Signature header)');
  const p = parseSignature(sig);
  if (!p.keyId || !p.signature || !p.headers) refuse('the Signature header must name keyId, headers and signature');
  if (!isAlgorithmAccepted(p.algorithm)) refuse(`algorithm ${p.algorithm} is not ${ALGORITHM}`);
  for (const required of ['(request-target)', 'date', 'digest'])
    if (!p.headers.includes(required)) refuse(`the signature does not cover ${required}`);

  const date = header(received.headers, 'date');
  const at = date ? Date.parse(date) : Number.NaN;
  if (Number.isNaN(at)) refuse('the Date header is missing or not a date');
  if (Math.abs((options.now ?? new Date()).getTime() - at) > DATE_WINDOW_MS)
    refuse(`date ${date} is more than 5 minutes from now`);
  if (header(received.headers, 'digest') !== digestOf(received.body)) refuse('the Digest does not match the body');

  const url = new URL(received.url, `http://${header(received.headers, 'host') ?? 'localhost'}`);
  let text: string;
  try {
    text = signingString(p.headers, (h) => {
      if (h === '(request-target)') return requestTarget(received.method ?? 'POST', `${url.pathname}${url.search}`);
      return h === 'host' ? (header(received.headers, 'host') ?? url.host) : header(received.headers, h);
    });
  } catch (err) {
    if (err instanceof MissingSignedHeader) refuse(err.message);
    throw err;
  }
  const keyId = p.keyId;
  let cache = keyCache.get(fetchKey);
  if (!cache) {
    cache = new Map();
    keyCache.set(fetchKey, cache);
  }
  const keys = cache;
  let key = keys.get(keyId);
  if (!key) {
    key = fetchKey(keyId).then((k) => (typeof k === 'string' ? createPublicKey(k) : k));
    keys.set(keyId, key);
    key.catch(() => keys.delete(keyId)); // a failed fetch is tried again next time
  }
  const publicKey = await key.catch((err: Error) => refuse(`the key ${keyId} cannot be fetched: ${err.message}`));
  if (!verifyText(text, p.signature, publicKey)) refuse(`the signature does not verify with key ${keyId}`);
  return { keyId };
}

/**
 * A SigningKeyFetcher from the API: GET {baseUrl}/v1/platform/security/signing_keys/{id} with the
 * given headers (a bearer token, say), the key in data.attributes.public_key.
 */
export function signingKeysFromApi(baseUrl: string, headers: Record<string, string> = {}): SigningKeyFetcher {
  return async (keyId) => {
    const res = await fetch(
      `${baseUrl.replace(/\/$/, '')}/v1/platform/security/signing_keys/${encodeURIComponent(keyId)}`,
      { headers },
    );
    if (!res.ok) throw new Error(`GET signing key ${keyId}: ${res.status}`);
    const body = (await res.json()) as { data?: { attributes?: { public_key?: string } } };
    const pem = body.data?.attributes?.public_key;
    if (!pem) throw new Error(`signing key ${keyId} has no public_key`);
    return pem;
  };
}
