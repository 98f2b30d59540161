// Reading a request header is on every request's path, so every layer reads them through one
// function that takes Node's cheaper way when it can.
import type { IncomingHttpHeaders } from 'node:http';
import type { Context } from 'hono';

/**
 * A request header by its lower-case name, for the layers every request passes through.
 *
 * Under @hono/node-server this reads the incoming message's own header object, which Node's HTTP
 * parser has already lower-cased, trimmed and checked for forbidden characters: the adapter's web
 * Headers view would validate the name and scan the value with regular expressions again on every
 * read, a measurable share of a small request (a bearer token is ~200 characters). Elsewhere
 * (`app.request()` in tests, msw) there is no incoming message and the web Request's headers answer.
 * Node keeps the first of repeated singleton headers (Authorization, Content-Type) and joins the
 * others with ", ", as the web Headers would.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: { headers: IncomingHttpHeaders } } | undefined)?.incoming;
  if (incoming === undefined) return c.req.header(name);
  const value = incoming.headers[name];
  return typeof value === 'string' || value === undefined ? value : value.join(', ');
}
