import type { MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="scheme-sim"' };

/** Requires `Authorization: Bearer <token>` (scheme word in any case) and sets the caller's organisation. */
export function bearerAuth(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (deps.auth === 'off') {
      c.set('organisationId', deps.sim.organisations.defaultOrganisation.id);
      c.set('clientId', 'anonymous');
      return next();
    }
    const header = c.req.header('authorization');
    if (!header) throw new ApiError(401, 'Authorization header is required: Bearer <access_token>', CHALLENGE);
    const m = /^bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new ApiError(401, 'Authorization header must use the Bearer scheme', CHALLENGE);
    const result = deps.tokens.verify(m[1]!);
    if (!result.ok) throw new ApiError(401, result.reason, { 'WWW-Authenticate': `Bearer realm="scheme-sim", error="invalid_token", error_description="${result.reason}"` });
    c.set('organisationId', result.claims.organisation_id);
    c.set('clientId', result.claims.client_id);
    return next();
  };
}

/** 403 unless the body's organisation_id is the caller's own. */
export function assertOwnOrganisation(callerOrganisation: string, bodyOrganisation: string): void {
  if (callerOrganisation !== bodyOrganisation.toLowerCase()) {
    throw new ApiError(403, `organisation_id ${bodyOrganisation} is not the organisation of this client; records can only be created for your own organisation`);
  }
}
