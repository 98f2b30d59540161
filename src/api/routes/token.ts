import { mediaType } from '../body.ts';
import type { AppDeps } from '../context.ts';
import { ApiError, errorBody } from '../errors.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';

const BASIC = { 'WWW-Authenticate': 'Basic realm="scheme-sim"' };

function parseBasic(header: string | undefined): { id: string; secret: string } | undefined {
  const m = /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return undefined;
  // RFC 6749 2.3.1: client id and secret are form-encoded before Basic encoding.
  const unescapeQuoted = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  return { id: unescapeQuoted(decoded.slice(0, i)), secret: unescapeQuoted(decoded.slice(i + 1)) };
}

/** POST /v1/oauth2/token: OAuth 2.0 client credentials with HTTP Basic client authentication. */
export function tokenRoutes(deps: AppDeps): RouteGroup {
  const r = defineRoutes('/v1/oauth2/token', 'Authentication');
  r.post('/', { summary: 'An access token (OAuth2 client credentials)', answer: 'token', open: true }, async (c) => {
    const creds = parseBasic(c.req.header('authorization'));
    if (!creds) throw new ApiError(401, 'client credentials are required as HTTP Basic authentication', BASIC);
    const type = mediaType(c.req.header('content-type'));
    const text = await c.req.text();
    // Form3's Go SDK asks for a token with Basic credentials and no body and no Content-Type: the
    // client-credentials grant is implied. A body of another type is still refused.
    const bodyless = type === '' && text === '';
    if (!bodyless && type !== 'application/x-www-form-urlencoded') {
      throw new ApiError(415, `Content-Type must be application/x-www-form-urlencoded, got ${type || 'none'}`);
    }
    const grant = bodyless ? 'client_credentials' : new URLSearchParams(text).get('grant_type');
    if (!grant) return c.json({ error: 'invalid_request', ...errorBody('grant_type in body is required') }, 400);
    if (grant !== 'client_credentials') {
      return c.json(
        {
          error: 'unsupported_grant_type',
          ...errorBody(`grant_type ${grant} is not supported; use client_credentials`),
        },
        400,
      );
    }
    const client = deps.clients.authenticate(creds.id, creds.secret);
    if (!client) throw new ApiError(403, 'invalid client credentials');
    return c.json(deps.tokens.issue(client.client_id, client.organisation_id), 200, { 'Cache-Control': 'no-store' });
  });
  return r;
}
