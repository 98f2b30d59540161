import { createHash } from 'node:crypto';

// Draft "Signing HTTP Requests" (draft-cavage-http-signatures), the scheme Form3's Go SDK signs
// requests with (pkg/form3/auth_request_signing.go) and Form3 signs notifications with.

/** `SHA-256=<base64>` of the body (a string as UTF-8). */
export function digestOf(body: string | Uint8Array): string {
  return `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
}

/** The draft's signing string of a request. */
export function signingString(
  method: string,
  url: URL,
  headers: { date: string; digest: string; contentType: string },
): string {
  return [
    `(request-target): ${method.toLowerCase()} ${url.pathname}${url.search}`,
    `host: ${url.host}`,
    `date: ${headers.date}`,
    `digest: ${headers.digest}`,
    `content-type: ${headers.contentType}`,
  ].join('\n');
}
