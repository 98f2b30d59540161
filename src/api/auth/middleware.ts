import type { Context, MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { requestHeader } from '../request-header.ts';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="scheme-sim"' };

const BEARER = /^bearer\s+(\S+)\s*$/i;
const WHITESPACE = /\s/;

/**
 * The token of `Bearer <token>`. The usual spelling (one space, a token without whitespace) skips
 * the capturing expression; anything else (case, extra or trailing whitespace) is left to it.
 */
function bearerToken(header: string): string | undefined {
  if (header.startsWith('Bearer ') && header.length > 7) {
    const token = header.slice(7);
    if (!WHITESPACE.test(token)) return token;
  }
  return BEARER.exec(header)?.[1];
}

/**
 * Requires `Authorization: Bearer <token>` (scheme word in any case) and sets the caller's
 * organisation and client on the context; throws 401 otherwise. Synchronous, so a layer that does
 * more than authenticate (the Open Banking envelope) calls it without a middleware frame of its own.
 */
export function authenticate(c: Context<AppEnv>, deps: AppDeps): void {
  if (deps.auth === 'off') {
    c.set('organisationId', deps.sim.organisations.defaultOrganisation.id);
    c.set('clientId', 'anonymous');
    return;
  }
  const header = requestHeader(c, 'authorization');
  if (!header) throw new ApiError(401, 'Authorization header is required: Bearer <access_token>', CHALLENGE);
  const token = bearerToken(header);
  if (token === undefined) throw new ApiError(401, 'Authorization header must use the Bearer scheme', CHALLENGE);
  const result = deps.tokens.verify(token);
  if (!result.ok) throw new ApiError(401, result.reason, { 'WWW-Authenticate': `Bearer realm="scheme-sim", error="invalid_token", error_description="${result.reason}"` });
  c.set('organisationId', result.claims.organisation_id);
  c.set('clientId', result.claims.client_id);
}

/** The middleware form of `authenticate`. */
export function bearerAuth(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    authenticate(c, deps);
    return next();
  };
}

/** 403 unless the body's organisation_id is the caller's own. */
export function assertOwnOrganisation(callerOrganisation: string, bodyOrganisation: string): void {
  if (callerOrganisation !== bodyOrganisation.toLowerCase()) {
    throw new ApiError(403, `organisation_id ${bodyOrganisation} is not the organisation of this client; records can only be created for your own organisation`);
  }
}
