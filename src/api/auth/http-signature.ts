// Requests signed as Form3's Go SDK signs them (pkg/form3/auth_request_signing.go): draft
// "Signing HTTP Requests" (cavage), rsa-sha256 over `(request-target) host date`, plus
// `content-type digest content-length` when there is a body; `Digest` is the body's SHA-256 (the
// SDK sends the bare base64 but signs `digest: SHA-256=<base64>`; both spellings are read).
import type { KeyObject } from 'node:crypto';
import {
  ALGORITHM,
  DATE_WINDOW_MS,
  isAlgorithmAccepted,
  MissingSignedHeader,
  parseSignature,
  requestTarget,
  sha256Base64,
  signingString,
  verifyText,
} from '../../signatures/cavage.ts';
import { ApiError } from '../wire/errors.ts';
import type { Caller } from './caller.ts';

const CHALLENGE = { 'WWW-Authenticate': 'Signature realm="scheme-sim",headers="(request-target) host date"' };

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
  const p = parseSignature(authorization);
  if (!p.keyId || !p.signature || !p.headers) refuse('Authorization: Signature must name keyId, headers and signature');
  if (!isAlgorithmAccepted(p.algorithm)) refuse(`algorithm ${p.algorithm} is not supported; use ${ALGORITHM}`);
  const signed = p.headers;
  for (const required of ['(request-target)', 'host', 'date'])
    if (!signed.includes(required)) refuse(`headers must include ${required}`);
  const hasBody = req.body.length > 0;
  if (hasBody && !signed.includes('digest')) refuse('headers must include digest when there is a body');

  const date = req.header('date');
  const at = date ? Date.parse(date) : Number.NaN;
  if (Number.isNaN(at)) refuse('the Date header is missing or not a date');
  if (Math.abs(now.getTime() - at) > DATE_WINDOW_MS)
    refuse(`date ${date} is more than 5 minutes from the server's clock (${now.toUTCString()})`);

  const digest = sha256Base64(req.body);
  if (signed.includes('digest')) {
    const sent = req.header('digest')?.replace(/^sha-256=/i, '');
    if (!sent) refuse('the Digest header is missing');
    if (sent !== digest) refuse('digest does not match the body');
  }

  let text: string;
  try {
    text = signingString(signed, (h) => {
      if (h === '(request-target)') return requestTarget(req.method, req.target);
      // The SDK sends the bare base64 but signs `SHA-256=<base64>`: the signed value is rebuilt.
      if (h === 'digest') return `SHA-256=${digest}`;
      return req.header(h);
    });
  } catch (err) {
    if (err instanceof MissingSignedHeader) refuse(`signed header ${err.header} is missing from the request`);
    throw err;
  }
  const owner = keys.keyOf(p.keyId);
  if (!owner) refuse(`keyId ${p.keyId} is not a key of any client (public_keys in the clients file)`);
  if (!verifyText(text, p.signature, owner.key)) refuse(`the signature does not verify with key ${p.keyId}`);
  // rsa-sha256 (PKCS#1 v1.5) is deterministic: the same GET or DELETE twice within a second carries
  // the same signature, and a poller or a retried delete (idempotent) is no attacker. A body sent
  // twice (a create or change replayed) is refused.
  const changes = req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH';
  if (changes && !replays.fresh(p.signature, now.getTime()))
    refuse('this signature was already used (a replayed request)');
  return owner.caller;
}
