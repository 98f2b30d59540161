// A client of the package signs its requests exactly as Form3's Go SDK does, so what passes the
// simulator's check passes Form3's (exported by the package).
import type { KeyObject } from 'node:crypto';
import { formatSignature, requestTarget, sha256Base64, signingString, signText } from '../signatures/cavage.ts';

/**
 * The headers Form3's Go SDK puts on a request it signs (pkg/form3/auth_request_signing.go), byte
 * for byte: Date in RFC 1123 (UTC), the signing string `(request-target) host date` plus
 * `content-type digest content-length` for a POST/PUT/PATCH body, `Digest` the bare base64 SHA-256
 * (signed as `SHA-256=<base64>`), and `Authorization: Signature keyId="…",algorithm="rsa-sha256",
 * headers="…", signature="…"` (a space before `signature`, as the SDK writes it).
 */
export function form3SignedHeaders(
  url: URL,
  method: string,
  body: string | undefined,
  keyId: string,
  key: KeyObject,
  now = new Date(),
  /** The body's type; null signs a body sent without one (the SDK always sends vnd.api+json). */
  contentType: string | null = 'application/vnd.api+json',
  /** Further headers to send and sign (the harness signs an x-request-id, so a repeated request is no replay). */
  extra: Record<string, string> = {},
): Record<string, string> {
  const date = now.toUTCString().replace('GMT', 'UTC');
  const headers: Record<string, string> = { Date: date };
  const values: Record<string, string> = {
    '(request-target)': requestTarget(method, `${url.pathname}${url.search}`),
    host: url.host,
    date,
  };
  if (['POST', 'PUT', 'PATCH'].includes(method) && body !== undefined) {
    const digest = sha256Base64(body);
    if (contentType !== null) values['content-type'] = headers['Content-Type'] = contentType;
    values.digest = `SHA-256=${digest}`;
    values['content-length'] = String(Buffer.byteLength(body));
    headers.Digest = digest;
  }
  for (const [name, value] of Object.entries(extra)) {
    values[name.toLowerCase()] = value;
    headers[name] = value;
  }
  // In the SDK's order: (request-target) host date, then content-type digest content-length, then the extras.
  const signed = Object.keys(values);
  const signature = signText(
    signingString(signed, (h) => values[h]),
    key,
  );
  headers.Authorization = `Signature ${formatSignature({ keyId, headers: signed, signature }, { sdkSpacing: true })}`;
  return headers;
}
