// So a browser app can use the double: which origins may call it (--cors), and preflights answered
// before authentication.
import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { appendAnswerHeader } from '../wire/answer-header.ts';
import { requestHeader } from '../wire/request-header.ts';

/** Which browser origins may call the simulator (`--cors`). */
export type CorsOrigins =
  | { kind: 'off' }
  | { kind: 'localhost' }
  | { kind: 'any' }
  | { kind: 'list'; origins: string[] };

const LOCALHOST = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/** `localhost` (the default), `*`, `off`, or a comma-separated list of origins. */
export function parseCorsOrigins(value: string | undefined): CorsOrigins {
  if (value === undefined || value === 'localhost') return { kind: 'localhost' };
  if (value === 'off') return { kind: 'off' };
  if (value === '*') return { kind: 'any' };
  const origins = value.split(',').map((o) => o.trim());
  for (const o of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(o))
      throw new Error(`must be localhost, *, off or origins like http://app.local:3000, got '${o}'`);
  }
  return { kind: 'list', origins };
}

export function describeCors(c: CorsOrigins): string {
  if (c.kind === 'list') return `origins ${c.origins.join(', ')}`;
  return c.kind === 'localhost' ? 'localhost origins' : c.kind === 'any' ? 'any origin' : 'off';
}

/** The response headers a browser app may read. */
const EXPOSED = ['x-scheme-sim-fault', 'retry-after', 'x-fapi-interaction-id', 'x-jws-signature', 'location'];

/** A CORS preflight: OPTIONS naming the method it asks for (Origin is checked by the caller). */
function isPreflight(c: Context): boolean {
  return requestHeader(c, 'access-control-request-method') !== undefined;
}

/**
 * CORS for a browser app using the double: preflights are answered before authentication (a
 * preflight carries no token), and the headers Form3's SDKs send are allowed.
 *
 * A preflight is an OPTIONS request with both `Origin` and `Access-Control-Request-Method` (the
 * Fetch standard's CORS-preflight request); Hono's CORS layer would answer any OPTIONS with an
 * Origin 204. Every other OPTIONS is a request like any other: authentication (401 without a
 * token), then routing (405 on a route, 404 on an unknown path); a browser's own OPTIONS request
 * (sent after its preflight) gets the CORS headers on that answer.
 *
 * Only a request that names an Origin (a browser's) goes through Hono's CORS layer: it sets its
 * headers on a response made before the handler's, and Hono then rebuilds the handler's answer
 * around it as a web stream, a large share of a small request. Every other request costs one
 * header read, and its answer says `Vary: Origin` as the CORS layer's would.
 */
export function corsLayer(origins: CorsOrigins): MiddlewareHandler | undefined {
  if (origins.kind === 'off') return undefined;
  const allowed = (origin: string): string | null => {
    if (origins.kind === 'any') return origin || '*';
    if (origins.kind === 'localhost') return LOCALHOST.test(origin) ? origin : null;
    return origins.origins.includes(origin) ? origin : null;
  };
  const browser = cors({
    origin: (origin) => allowed(origin),
    allowMethods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
    allowHeaders: [
      'authorization',
      'content-type',
      'accept',
      'date',
      'digest',
      'signature',
      'idempotency-key',
      'x-fapi-financial-id',
      'x-fapi-interaction-id',
      'x-jws-signature',
    ],
    exposeHeaders: EXPOSED,
    maxAge: 600,
  });
  return async (c, next) => {
    const origin = requestHeader(c, 'origin');
    if (origin !== undefined && (c.req.method !== 'OPTIONS' || isPreflight(c))) return browser(c, next);
    await next();
    // On the finished answer's own headers: Hono's c.header() would rebuild the answer, and reading
    // c.res.headers would make web Headers of them (answer-header.ts).
    appendAnswerHeader(c.res, 'vary', 'Origin');
    const allow = origin === undefined ? null : allowed(origin);
    if (allow !== null) {
      // An OPTIONS that is no preflight, from a browser: the headers Hono's layer gives any other answer.
      c.res.headers.set('Access-Control-Allow-Origin', allow);
      c.res.headers.set('Access-Control-Expose-Headers', EXPOSED.join(','));
    }
  };
}
