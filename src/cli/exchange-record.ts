// What `scheme-sim proxy` writes and `scheme-sim replay` reads: one HTTP exchange per JSON line,
// bodies kept, every secret and token masked before it reaches the file. A token is masked with a
// fingerprint (part of its SHA-256), so the replay can tell which token issued by which token
// request a later request used, without the file ever holding a usable credential.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** One side of an exchange as recorded: headers lower-cased, the body as text or base64. */
export interface RecordedMessage {
  headers: Record<string, string>;
  /** UTF-8 text (JSON and form bodies masked), or base64 when `encoding` says so; absent when empty. */
  body?: string;
  encoding?: 'base64';
}

export interface RecordedRequest extends RecordedMessage {
  method: string;
  /** Path and query as sent: `/v1/organisation/accounts?filter%5Bbank_id%5D=400300`. */
  path: string;
}

export interface RecordedResponse extends RecordedMessage {
  status: number;
}

/** Who a request authenticated as, with nothing that would authenticate again. */
export type RecordedAuth =
  | { scheme: 'basic'; client_id: string }
  | { scheme: 'bearer'; token: string }
  | { scheme: 'other' };

export interface Exchange {
  /** 1-based order in the recording. */
  seq: number;
  started_at: string;
  request: RecordedRequest & { auth?: RecordedAuth };
  /** Absent when the target gave no answer (the connection failed): `error` says why. */
  response?: RecordedResponse;
  error?: string;
}

/** What a masked secret looks like in a recording; a token keeps a fingerprint after it. */
export const MASK = '<masked>';
const MASKED_TOKEN = /^<masked token ([0-9a-f]{16})>$/;

/** A token masked with its fingerprint: `<masked token 0123456789abcdef>`. */
export function maskToken(token: string): string {
  return `<masked token ${createHash('sha256').update(token).digest('hex').slice(0, 16)}>`;
}

/** The fingerprint of a masked token, or undefined for anything else. */
export function fingerprintOf(masked: unknown): string | undefined {
  return typeof masked === 'string' ? MASKED_TOKEN.exec(masked)?.[1] : undefined;
}

/** Whether a recorded value is a mask (compared as "present", never by value). */
export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith('<masked');
}

/**
 * Header names whose value is a credential or a signature over one: Authorization and its proxy
 * twin, cookies, Form3's request `Signature`, the Open Banking `x-jws-signature`, and webhook
 * signatures (Standard Webhooks and Form3's notification headers).
 */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'signature',
  'x-jws-signature',
  'webhook-signature',
  'x-form3-signature',
]);

/** Body keys (JSON or form) whose value is a secret: token requests' and answers', webhook secrets. */
const SECRET_KEYS = new Set([
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'password',
  'secret',
  'webhook_secret',
  'private_key',
]);
/** Of those, the ones issued by a target and used again: masked with a fingerprint. */
const TOKEN_KEYS = new Set(['access_token', 'refresh_token', 'id_token']);

/** Who an Authorization header names, kept without its secret. */
export function authOf(header: string | undefined): RecordedAuth | undefined {
  if (!header) return undefined;
  const [scheme, value = ''] = header.split(/\s+/, 2);
  if (/^bearer$/i.test(scheme ?? '')) return { scheme: 'bearer', token: maskToken(value) };
  if (/^basic$/i.test(scheme ?? '')) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    return { scheme: 'basic', client_id: decodeURIComponent(decoded.split(':')[0] ?? '') };
  }
  return { scheme: 'other' };
}

/** The headers to record: lower-cased, hop-by-hop ones dropped, secrets masked. */
export function maskHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    if (['connection', 'keep-alive', 'transfer-encoding'].includes(key)) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[key] = SECRET_HEADERS.has(key) ? (key === 'authorization' ? maskAuthorization(text) : MASK) : text;
  }
  return out;
}

/** `Bearer <masked token …>`, `Basic <masked>`: the scheme stays readable. */
function maskAuthorization(value: string): string {
  const [scheme, token = ''] = value.split(/\s+/, 2);
  return /^bearer$/i.test(scheme ?? '') ? `${scheme} ${maskToken(token)}` : `${scheme} ${MASK}`;
}

/** A JSON value with every secret key's value masked (tokens with their fingerprint). */
export function maskJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskJson);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = k.toLowerCase();
    if (SECRET_KEYS.has(key) && typeof v === 'string') out[k] = TOKEN_KEYS.has(key) ? maskToken(v) : MASK;
    else out[k] = maskJson(v);
  }
  return out;
}

/** A form body (a token request) with its secret fields masked. */
function maskForm(text: string): string {
  const form = new URLSearchParams(text);
  for (const key of [...form.keys()]) if (SECRET_KEYS.has(key.toLowerCase())) form.set(key, MASK);
  return form.toString();
}

const isText = (type: string) => /json|text|xml|x-www-form-urlencoded|javascript|event-stream/i.test(type);

/** A body as recorded: JSON and form bodies masked, other text as it is, anything else base64. */
export function recordBody(bytes: Buffer, contentType: string | undefined): Pick<RecordedMessage, 'body' | 'encoding'> {
  if (bytes.length === 0) return {};
  const type = contentType ?? '';
  if (!isText(type)) return { body: bytes.toString('base64'), encoding: 'base64' };
  const text = bytes.toString('utf8');
  if (/x-www-form-urlencoded/i.test(type)) return { body: maskForm(text) };
  if (/json/i.test(type)) {
    try {
      return { body: JSON.stringify(maskJson(JSON.parse(text))) };
    } catch {
      // not JSON after all: kept as the text it is, masked key by key would be guessing
    }
  }
  return { body: text };
}

/** The body as bytes again. */
export function bodyBytes(message: RecordedMessage): Buffer {
  if (message.body === undefined) return Buffer.alloc(0);
  return Buffer.from(message.body, message.encoding === 'base64' ? 'base64' : 'utf8');
}

/** The body parsed as JSON, or undefined when it is not JSON. */
export function jsonOf(message: RecordedMessage | undefined): unknown {
  if (!message?.body || message.encoding === 'base64') return undefined;
  if (!/json/i.test(message.headers['content-type'] ?? '')) return undefined;
  try {
    return JSON.parse(message.body);
  } catch {
    return undefined;
  }
}

/** Reads a recording; a line that is not an exchange names its line number. */
export function readRecording(file: string): Exchange[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const exchanges: Exchange[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let parsed: Exchange;
    try {
      parsed = JSON.parse(line) as Exchange;
    } catch (err) {
      throw new Error(`${file}:${i + 1}: not JSON: ${(err as Error).message}`);
    }
    if (typeof parsed?.request?.method !== 'string' || typeof parsed.request.path !== 'string')
      throw new Error(`${file}:${i + 1}: not an exchange (request.method and request.path are needed)`);
    exchanges.push(parsed);
  });
  return exchanges;
}
