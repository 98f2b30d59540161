// Draft "Signing HTTP Requests" (draft-cavage-http-signatures), as Form3 uses it: its Go SDK signs
// requests with it (pkg/form3/auth_request_signing.go) and Form3 signs notifications with it
// (tutorial "Verifying notification headers"). The one implementation of the header's syntax, the
// signing string and the rsa-sha256 signature, for both sides: api/auth checks incoming requests,
// delivery signs notifications, src/client signs requests and checks notifications. What a side
// requires (which headers, how old a Date) is its own policy.
import { createHash, type KeyObject, sign, verify } from 'node:crypto';

/** The only algorithm Form3 signs with. */
export const ALGORITHM = 'rsa-sha256';
/** Whether a Signature header's algorithm is Form3's (named in any case; absent or empty: the key's own). */
export function isAlgorithmAccepted(algorithm: string | undefined): boolean {
  return !algorithm || algorithm.toLowerCase() === ALGORITHM;
}

/** How far a signed message's Date may be from the receiver's clock (Form3: 5 minutes). */
export const DATE_WINDOW_MS = 5 * 60_000;

/** The parameters of a Signature header; a parameter the header lacks is undefined. */
export interface SignatureParams {
  keyId?: string;
  algorithm?: string;
  /** The signed header names, lower case, in signing order (the draft's `headers`). */
  headers?: string[];
  /** Base64. */
  signature?: string;
}

/**
 * `keyId="…",algorithm="…",headers="…",signature="…"`, as a `Signature` header carries it or an
 * `Authorization: Signature …` header after its scheme word, with or without spaces after the
 * commas (Form3's SDK writes one before `signature`). Header names are read in any case and split
 * on any whitespace.
 */
export function parseSignature(header: string): SignatureParams {
  const raw: Record<string, string> = {};
  for (const m of header.replace(/^signature\s+/i, '').matchAll(/([A-Za-z]+)="([^"]*)"/g)) raw[m[1]!] = m[2]!;
  return {
    keyId: raw.keyId,
    algorithm: raw.algorithm,
    headers: raw.headers ? raw.headers.toLowerCase().split(/\s+/).filter(Boolean) : undefined,
    signature: raw.signature,
  };
}

/**
 * The parameters as a header value: `keyId="…",algorithm="rsa-sha256",headers="…",signature="…"`;
 * `sdkSpacing` puts a space before `signature`, byte for byte as Form3's Go SDK writes it.
 */
export function formatSignature(
  p: { keyId: string; headers: readonly string[]; signature: string },
  options: { sdkSpacing?: boolean } = {},
): string {
  const last = options.sdkSpacing ? ', ' : ',';
  return `keyId="${p.keyId}",algorithm="${ALGORITHM}",headers="${p.headers.join(' ')}"${last}signature="${p.signature}"`;
}

/** The `(request-target)` pseudo-header's value: the method in lower case, the path and query. */
export function requestTarget(method: string, pathAndQuery: string): string {
  return `${method.toLowerCase()} ${pathAndQuery}`;
}

/** A header the signature names is not in the message. */
export class MissingSignedHeader extends Error {
  readonly header: string;
  constructor(header: string) {
    super(`the signed header ${header} is missing`);
    this.header = header;
  }
}

/**
 * The signing string: one `name: value` line per signed header, in the order given, joined by
 * newlines. `valueFor` gives each value (for `(request-target)` too); a missing one throws
 * MissingSignedHeader.
 */
export function signingString(headers: readonly string[], valueFor: (name: string) => string | undefined): string {
  return headers
    .map((name) => {
      const value = valueFor(name);
      if (value === undefined) throw new MissingSignedHeader(name);
      return `${name}: ${value}`;
    })
    .join('\n');
}

/** The base64 rsa-sha256 signature of a signing string. */
export function signText(text: string, privateKey: KeyObject): string {
  return sign('sha256', Buffer.from(text), privateKey).toString('base64');
}

/** Whether `signature` (base64) is the rsa-sha256 signature of the signing string under the key. */
export function verifyText(text: string, signature: string, publicKey: KeyObject): boolean {
  return verify('sha256', Buffer.from(text), publicKey, Buffer.from(signature, 'base64'));
}

/** The bare base64 SHA-256 of a body (a string as UTF-8). */
export function sha256Base64(body: string | Uint8Array): string {
  return createHash('sha256').update(body).digest('base64');
}

/** `SHA-256=<base64>` of the body, the Digest header's value (a string as UTF-8). */
export function digestOf(body: string | Uint8Array): string {
  return `SHA-256=${sha256Base64(body)}`;
}
