// Who a request comes from: the bearer token or Form3-signed request that names the caller (or the
// anonymous client under --auth off), and the 401 or 403 when it names nobody or another organisation.

import type { Context } from 'hono';
import { rememberLast } from '../../sim/remember-last.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { pathPrefixOf } from '../sandbox-directory.ts';
import { ApiError } from '../wire/errors.ts';
import { requestHeader } from '../wire/request-header.ts';
import type { Caller } from './caller.ts';
import { isSignatureAuthorization, type RequestSignatures } from './request-signatures.ts';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="scheme-sim"' };

const BEARER = /^bearer\s+(\S+)\s*$/i;
const WHITESPACE = /\s/;

/**
 * The token of `Bearer <token>`. The usual spelling (one space, a token without whitespace) skips
 * the capturing expression; anything else (case, extra or trailing whitespace) is left to it. A
 * client sends one token again and again: the last header's token is kept (rememberLast), and the
 * verified tokens' Map has hashed that string already.
 */
const bearerToken = rememberLast((header: string): string | undefined => {
  if (header.startsWith('Bearer ') && header.length > 7) {
    const token = header.slice(7);
    if (!WHITESPACE.test(token)) return token;
  }
  return BEARER.exec(header)?.[1];
});

/**
 * The client of every request when requests carry no credentials (`--auth off`): a UUID, as a
 * subscription's `user_id` (go-form3 `subscription_attributes.go`, format uuid) and a
 * notification's `actioned_by` are. The simulator's own id, next to the scheme's (sim/actor.ts).
 */
export const ANONYMOUS_CLIENT_ID = '5c4e3e51-0000-4000-8000-000000000002';

/**
 * The caller of `Authorization: Bearer <token>` (scheme word in any case); throws 401 otherwise.
 * Framework-free: the Hono layers and the Node adapter of name verification both call it.
 */
export function verifyBearer(header: string | undefined, deps: AppDeps): Caller {
  if (!deps.mode.credentials)
    return { organisationId: deps.sim.organisations.defaultOrganisation.id, clientId: ANONYMOUS_CLIENT_ID };
  if (!header) throw new ApiError(401, 'Authorization header is required: Bearer <access_token>', CHALLENGE);
  const token = bearerToken(header);
  if (token === undefined) throw new ApiError(401, 'Authorization header must use the Bearer scheme', CHALLENGE);
  const result = deps.tokens.claimsOf(token);
  if (!result.ok)
    throw new ApiError(401, result.reason, {
      'WWW-Authenticate': `Bearer realm="scheme-sim", error="invalid_token", error_description="${result.reason}"`,
    });
  return { organisationId: result.claims.organisation_id, clientId: result.claims.client_id };
}

/** Requires a valid bearer token and sets the caller's organisation and client on the context. */
export function authenticate(c: Context<AppEnv>, deps: AppDeps): void {
  const caller = verifyBearer(requestHeader(c, 'authorization'), deps);
  c.set('organisationId', caller.organisationId);
  c.set('clientId', caller.clientId);
}

/**
 * Names the caller of a request on its context, by a bearer token or a request signed as Form3's
 * Go SDK signs them (`Authorization: Signature keyId=…`, src/api/auth/http-signature.ts); throws
 * 401 otherwise. A promise only for a signed request, whose body is read to check its digest.
 */
export function authenticateRequest(
  c: Context<AppEnv>,
  deps: AppDeps,
  signatures: RequestSignatures,
): Promise<void> | undefined {
  const header = requestHeader(c, 'authorization');
  if (!deps.mode.credentials || !isSignatureAuthorization(header)) {
    authenticate(c, deps);
    return undefined;
  }
  return (async () => {
    const url = new URL(c.req.url);
    const caller = signatures.callerOf(header, {
      method: c.req.method,
      target: `${pathPrefixOf(c.env)}${url.pathname}${url.search}`,
      header: (name) => requestHeader(c, name),
      body: c.req.method === 'GET' || c.req.method === 'DELETE' ? '' : await c.req.text(),
    });
    c.set('organisationId', caller.organisationId);
    c.set('clientId', caller.clientId);
  })();
}

/** 403 unless the body's organisation_id is the caller's own. */
export function assertOwnOrganisation(callerOrganisation: string, bodyOrganisation: string): void {
  if (callerOrganisation !== bodyOrganisation.toLowerCase()) {
    throw new ApiError(
      403,
      `organisation_id ${bodyOrganisation} is not the organisation of this client; records can only be created for your own organisation`,
    );
  }
}
