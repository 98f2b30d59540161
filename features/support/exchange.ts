// What a failed step needs to explain itself: the HTTP exchange as text, secrets masked.

const SECRET_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'x-api-key', 'signature']);
const MAX_BODY_CHARS = 4_000;

/** `Bearer abcd…wxyz (64 chars)`: enough to tell two tokens apart, never enough to use one. */
export function maskSecret(value: string): string {
  const space = value.indexOf(' ');
  const scheme = space > 0 && space < 12 ? value.slice(0, space + 1) : '';
  const secret = value.slice(scheme.length);
  if (secret.length <= 8) return `${scheme}***`;
  return `${scheme}${secret.slice(0, 4)}…${secret.slice(-4)} (${secret.length} chars)`;
}

function headerLines(headers: Headers): string[] {
  const out: string[] = [];
  headers.forEach((value, name) => {
    out.push(`${name}: ${SECRET_HEADERS.has(name) ? maskSecret(value) : value}`);
  });
  return out;
}

function bodyText(text: string | undefined): string {
  if (!text) return '';
  const shown = text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}… (${text.length} chars)` : text;
  return `\n\n${shown}`;
}

/** A request line, its headers and body, then the response's: as an HTTP trace reads. */
export function formatExchange(
  request: { method: string; url: string; headers: Headers; body?: string },
  response: { status: number; headers: Headers; text: string } | undefined,
): string {
  const lines = [`${request.method} ${request.url}`, ...headerLines(request.headers)].join('\n');
  const req = `${lines}${bodyText(request.body)}`;
  if (!response) return `${req}\n\n(no response)`;
  const res = [`HTTP ${response.status}`, ...headerLines(response.headers)].join('\n');
  return `${req}\n\n${res}${bodyText(response.text)}`;
}

/** A body for a trace: text as it is, bytes by their size. */
export function describeBody(body: string | Uint8Array | undefined): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : `(${body.byteLength} bytes)`;
}
