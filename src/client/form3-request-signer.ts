import { createHash, type KeyObject, sign } from 'node:crypto';

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
  const signed = ['(request-target)', 'host', 'date'];
  let message = `(request-target): ${method.toLowerCase()} ${url.pathname}${url.search}\nhost: ${url.host}\ndate: ${date}`;
  if (['POST', 'PUT', 'PATCH'].includes(method) && body !== undefined) {
    const digest = createHash('sha256').update(body).digest('base64');
    if (contentType !== null) {
      message += `\ncontent-type: ${contentType}`;
      signed.push('content-type');
      headers['Content-Type'] = contentType;
    }
    message += `\ndigest: SHA-256=${digest}\ncontent-length: ${Buffer.byteLength(body)}`;
    signed.push('digest', 'content-length');
    headers.Digest = digest;
  }
  for (const [name, value] of Object.entries(extra)) {
    message += `\n${name.toLowerCase()}: ${value}`;
    signed.push(name.toLowerCase());
    headers[name] = value;
  }
  const signature = sign('sha256', Buffer.from(message), key).toString('base64');
  headers.Authorization = `Signature keyId="${keyId}",algorithm="rsa-sha256",headers="${signed.join(' ')}", signature="${signature}"`;
  return headers;
}
