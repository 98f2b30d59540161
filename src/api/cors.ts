import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { requestHeader } from './request-header.ts';

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

/**
 * CORS for a browser app using the double: preflights are answered before authentication (a
 * preflight carries no token), and the headers Form3's SDKs send are allowed.
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
    exposeHeaders: ['x-scheme-sim-fault', 'retry-after', 'x-fapi-interaction-id', 'x-jws-signature', 'location'],
    maxAge: 600,
  });
  return async (c, next) => {
    if (requestHeader(c, 'origin') !== undefined) return browser(c, next);
    await next();
    // On the finished answer's own headers: Hono's c.header() would rebuild the answer.
    c.res.headers.append('Vary', 'Origin');
  };
}
