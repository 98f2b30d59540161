// Every client starts here: the OAuth token endpoint, answering its refusals as both Form3's SDK and
// an ordinary OAuth library expect.
import { mediaType } from '../body/body.ts';
import type { AppDeps } from '../context.ts';
import { defineRoutes, type RouteDoc, type RouteGroup } from '../route-declaration.ts';
import { OAuthError, TOKEN_PATH } from '../wire/errors.ts';

const BASIC = { 'WWW-Authenticate': 'Basic realm="scheme-sim"' };

/** What the OpenAPI document says of the token route, its error answers included. */
const TOKEN_DOC: RouteDoc = {
  summary: 'An access token (OAuth2 client credentials)',
  answer: 'token',
  open: true,
  errors: {
    schema: 'token-error',
    statuses: {
      400: 'No grant_type (`invalid_request`), or one other than client_credentials (`unsupported_grant_type`)',
      401: 'No HTTP Basic client credentials (`invalid_client`, with `WWW-Authenticate: Basic`)',
      403: 'Wrong client id or secret (`invalid_client`): Form3’s "Authentication failed"',
      415: 'A body that is not a form (`invalid_request`)',
    },
  },
};

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

/**
 * POST /v1/oauth2/token: OAuth 2.0 client credentials with HTTP Basic client authentication. Every
 * refusal is RFC 6749 §5.2's error beside Form3's (errors.ts, oauthErrorBody), with Form3's 403 for
 * wrong credentials (its SDK's CreateOauthTokenForbidden, "Authentication failed"; RFC 6749 would
 * say 401) and 401 with a Basic challenge when no credentials came at all.
 */
export function tokenRoutes(deps: AppDeps): RouteGroup {
  const r = defineRoutes(TOKEN_PATH, 'Authentication');
  r.post('/', TOKEN_DOC, async (c) => {
    const creds = parseBasic(c.req.header('authorization'));
    if (!creds)
      throw new OAuthError(
        401,
        'invalid_client',
        'client credentials are required as HTTP Basic authentication',
        BASIC,
      );
    const type = mediaType(c.req.header('content-type'));
    const text = await c.req.text();
    // Form3's Go SDK asks for a token with Basic credentials and no body and no Content-Type: the
    // client-credentials grant is implied. A body of another type is still refused.
    const bodyless = type === '' && text === '';
    if (!bodyless && type !== 'application/x-www-form-urlencoded') {
      throw new OAuthError(
        415,
        'invalid_request',
        `Content-Type must be application/x-www-form-urlencoded, got ${type || 'none'}`,
      );
    }
    const grant = bodyless ? 'client_credentials' : new URLSearchParams(text).get('grant_type');
    if (!grant) throw new OAuthError(400, 'invalid_request', 'grant_type in body is required');
    if (grant !== 'client_credentials')
      throw new OAuthError(
        400,
        'unsupported_grant_type',
        `grant_type ${grant} is not supported; use client_credentials`,
      );
    const client = deps.clients.authenticate(creds.id, creds.secret);
    if (!client) throw new OAuthError(403, 'invalid_client', 'invalid client credentials');
    return c.json(deps.tokens.issue(client.client_id, client.organisation_id), 200, { 'Cache-Control': 'no-store' });
  });
  return r;
}
