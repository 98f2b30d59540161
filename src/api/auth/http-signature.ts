import { createHash, type KeyObject, verify } from 'node:crypto';
import { ApiError } from '../errors.ts';
import type { Caller } from './caller.ts';

// Requests signed as Form3's Go SDK signs them (pkg/form3/auth_request_signing.go): draft
// "Signing HTTP Requests" (cavage), rsa-sha256 over `(request-target) host date`, plus
// `content-type digest content-length` when there is a body; `Digest` is the body's SHA-256 (the
// SDK sends the bare base64 but signs `digest: SHA-256=<base64>`; both spellings are read).

const CHALLENGE = { 'WWW-Authenticate': 'Signature realm="scheme-sim",headers="(request-target) host date"' };
/** How far a request's Date may be from the wall clock (Form3: 5 minutes). */
export const DATE_WINDOW_MS = 5 * 60_000;

export interface SignedRequest {
  method: string;
  /** Path and query as sent (`/v1/organisation/accounts?filter%5B…`). */
  target: string;
  header(name: string): string | undefined;
  /** The body as sent (its bytes are what the Digest covers). */
  body: string | Uint8Array;
}

export interface SignatureKeys {
  /** The client that registered `keyId`, and the key. */
  keyOf(keyId: string): { caller: Caller; key: KeyObject } | undefined;
}

function refuse(reason: string): never {
  throw new ApiError(401, `request signature: ${reason}`, CHALLENGE);
}

/** `keyId="…",algorithm="…",headers="…", signature="…"` → its parameters. */
export function signatureParams(header: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const m of header.replace(/^signature\s+/i, '').matchAll(/([A-Za-z]+)="([^"]*)"/g)) params[m[1]!] = m[2]!;
  return params;
}

/** Signatures seen within the date window: the same signed request twice is a replay. */
export class ReplayCache {
  readonly #seen = new Map<string, number>();

  /** True the first time a signature is seen; forgets those older than the window. */
  fresh(signature: string, nowMs: number): boolean {
    for (const [s, at] of this.#seen) {
      if (nowMs - at <= DATE_WINDOW_MS * 2) break; // insertion order: the rest are newer
      this.#seen.delete(s);
    }
    if (this.#seen.has(signature)) return false;
    this.#seen.set(signature, nowMs);
    return true;
  }
}

/** The caller of a signed request, or a 401 naming what is wrong. */
export function verifySignedRequest(
  authorization: string,
  req: SignedRequest,
  keys: SignatureKeys,
  now: Date,
  replays: ReplayCache,
): Caller {
  const p = signatureParams(authorization);
  if (!p.keyId || !p.signature || !p.headers) refuse('Authorization: Signature must name keyId, headers and signature');
  if (p.algorithm && p.algorithm.toLowerCase() !== 'rsa-sha256')
    refuse(`algorithm ${p.algorithm} is not supported; use rsa-sha256`);
  const signed = p.headers.toLowerCase().split(/\s+/);
  for (const required of ['(request-target)', 'host', 'date'])
    if (!signed.includes(required)) refuse(`headers must include ${required}`);
  const hasBody = req.body.length > 0;
  if (hasBody && !signed.includes('digest')) refuse('headers must include digest when there is a body');

  const date = req.header('date');
  const at = date ? Date.parse(date) : Number.NaN;
  if (Number.isNaN(at)) refuse('the Date header is missing or not a date');
  if (Math.abs(now.getTime() - at) > DATE_WINDOW_MS)
    refuse(`date ${date} is more than 5 minutes from the server's clock (${now.toUTCString()})`);

  const digest = (
    typeof req.body === 'string' ? createHash('sha256').update(req.body, 'utf8') : createHash('sha256').update(req.body)
  ).digest('base64');
  if (signed.includes('digest')) {
    const sent = req.header('digest')?.replace(/^sha-256=/i, '');
    if (!sent) refuse('the Digest header is missing');
    if (sent !== digest) refuse('digest does not match the body');
  }

  const lines = signed.map((h) => {
    if (h === '(request-target)') return `(request-target): ${req.method.toLowerCase()} ${req.target}`;
    if (h === 'digest') return `digest: SHA-256=${digest}`;
    const value = req.header(h);
    if (value === undefined) refuse(`signed header ${h} is missing from the request`);
    return `${h}: ${value}`;
  });
  const owner = keys.keyOf(p.keyId);
  if (!owner) refuse(`keyId ${p.keyId} is not a key of any client (public_keys in the clients file)`);
  const ok = verify('sha256', Buffer.from(lines.join('\n')), owner.key, Buffer.from(p.signature, 'base64'));
  if (!ok) refuse(`the signature does not verify with key ${p.keyId}`);
  // rsa-sha256 (PKCS#1 v1.5) is deterministic: the same GET or DELETE twice within a second carries
  // the same signature, and a poller or a retried delete (idempotent) is no attacker. A body sent
  // twice (a create or change replayed) is refused.
  const changes = req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH';
  if (changes && !replays.fresh(p.signature, now.getTime()))
    refuse('this signature was already used (a replayed request)');
  return owner.caller;
}
