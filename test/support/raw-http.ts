// Some wire rules only show over a socket (Content-Length of an empty answer, how a Go client's
// bytes are read): raw HTTP/1.1, sent and read without fetch in between.
import { connect } from 'node:net';

/** An HTTP/1.1 answer as it came over the socket: its status, headers (names lower-cased) and body. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The bytes as received, for a failing assertion's message. */
  text: string;
}

/**
 * The request a Go client (net/http) writes for `http.NewRequest(method, url, body)` with these
 * headers, byte for byte: the request line, Host, User-Agent `Go-http-client/1.1`,
 * Content-Length when there is a body, the set headers in sorted order, `Accept-Encoding: gzip`.
 * `Connection: close` is added so the answer ends with the socket.
 */
export function goRequest(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: string,
): { url: string; bytes: string } {
  const u = new URL(url);
  const lines = [`${method} ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`, 'User-Agent: Go-http-client/1.1'];
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  for (const name of Object.keys(headers).sort()) lines.push(`${name}: ${headers[name]}`);
  lines.push('Accept-Encoding: gzip', 'Connection: close');
  return { url, bytes: `${lines.join('\r\n')}\r\n\r\n${body ?? ''}` };
}

/** Sends the bytes to the server of `url` and reads the answer (chunked or not) until the socket closes. */
export function sendRaw(request: { url: string; bytes: string }): Promise<RawAnswer> {
  const u = new URL(request.url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(u.port), u.hostname, () => socket.write(request.bytes));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const bytes = Buffer.concat(chunks);
      const end = bytes.indexOf('\r\n\r\n');
      const [statusLine, ...headerLines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body: Buffer = bytes.subarray(end + 4);
      if (headers['transfer-encoding'] === 'chunked') body = unchunked(body);
      resolve({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: body.toString('utf8'),
        text: bytes.toString('utf8'),
      });
    });
  });
}

/** The body of a chunked answer (sizes in bytes). */
function unchunked(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
