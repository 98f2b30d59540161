// A failing generated case is handed to a person as a command they can paste: the request as curl,
// with the credentials left as shell variables (never printed) and the seed that replays the run.
import type { SentRequest } from './exchange-client.ts';

/** A word quoted for a POSIX shell. */
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The headers that carry secrets, printed as variables the user sets. */
const SECRET_HEADERS: Record<string, string> = {
  authorization: 'Authorization: $AUTH',
  signature: 'Signature: $SIGNATURE',
  'x-jws-signature': 'x-jws-signature: $JWS',
};

/** `curl -sS -X POST 'http://…/v1/…' -H … -d '{…}'` for a request as sent to `baseUrl`. */
export function curlOf(baseUrl: string, sent: SentRequest): string {
  const parts = ['curl -sS', `-X ${sent.method}`, quote(`${baseUrl}${sent.path}`)];
  for (const [name, value] of Object.entries(sent.headers)) {
    const secret = SECRET_HEADERS[name.toLowerCase()];
    parts.push(`-H ${secret ? `"${secret}"` : quote(`${name}: ${value}`)}`);
  }
  if (sent.body !== undefined) parts.push(`-d ${quote(sent.body)}`);
  return parts.join(' ');
}
