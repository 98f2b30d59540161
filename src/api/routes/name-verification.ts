import { randomUUID } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { VerificationRequest } from '../../sim/cop/decide.ts';
import { authenticate } from '../auth/middleware.ts';
import { mediaType } from '../body.ts';
import { limitBody } from '../body-limit.ts';
import { negotiate } from '../negotiate.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { ObError, obErrorBody, obErrorResponse, toObError } from '../ob-errors.ts';
import { validateOb } from '../ob-validate.ts';
import { requestHeader } from '../request-header.ts';

export const NAME_VERIFICATION_PATH = '/:open_banking_id/open-banking/v3.1/accounts/name-verification';
const INTERACTION = 'x-fapi-interaction-id';

interface RequestBody {
  Data: { SchemeName: string; AccountType: 'Personal' | 'Business'; Identification: string; Name: string; SecondaryIdentification?: string };
}

/**
 * The one layer under /v1/participants (mounted ahead of the shared layers, which therefore do not
 * run here): the shared body limit and bearer authentication, called as functions rather than as
 * middleware of their own (each Hono layer is an async frame and a promise per request, a visible
 * share of a request this small). It echoes or generates x-fapi-interaction-id on every answer and
 * turns errors of the shared rules into the Open Banking error body.
 *
 * The shared durability commit is not needed: name verification never changes the store. The
 * shared vnd.api+json relabel must not apply: Open Banking answers are application/json.
 *
 * The route's own 200 is built with the header in a plain object (no web Headers object: the
 * server writes such a response straight from its fields); every other answer gets it here.
 */
export function openBankingEnvelope(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const interactionId = requestHeader(c, INTERACTION)?.trim() || randomUUID();
    c.set('interactionId', interactionId);
    let failure: unknown;
    try {
      // The body limit first (a 413 before a 401), as on every other route.
      await limitBody(c, () => {
        authenticate(c, deps);
        return next();
      });
    } catch (err) {
      failure = err;
    }
    failure ??= c.error; // thrown further in and answered in the generic shape by the app's onError
    if (failure !== undefined) {
      const e = toObError(failure, c);
      c.res = undefined; // replace, do not merge, an answer already made
      c.res = c.json(obErrorBody(e.status, e.message, e.errors), e.status, { ...e.headers, [INTERACTION]: interactionId });
    } else if (c.get('interactionStamped') !== true) {
      c.res.headers.set(INTERACTION, interactionId);
    }
  };
}

/**
 * Accept absent, or allowing application/json by the shared negotiation rules (the most specific
 * range decides, so `application/json;q=0` with a wildcard refuses JSON). Common values skip parsing.
 */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept === 'application/json' || accept === '*/*') return true;
  return negotiate(accept, ['application/json']) !== null;
}

function headerChecks(c: import('hono').Context<AppEnv>, strict: boolean, openBankingId: string): void {
  const accept = requestHeader(c, 'accept');
  if (!acceptsJson(accept)) {
    throw new ObError(406, 'Accept must allow application/json', [
      { ErrorCode: 'UK.OBIE.Header.Invalid', Message: `Accept ${accept} does not allow application/json`, Path: 'Accept' },
    ]);
  }
  const contentType = requestHeader(c, 'content-type');
  const type = contentType === 'application/json' ? contentType : mediaType(contentType);
  if (type !== 'application/json') {
    throw new ObError(415, `Content-Type must be application/json, got ${type || 'none'}`, [
      { ErrorCode: 'UK.OBIE.Header.Invalid', Message: 'Content-Type must be application/json', Path: 'Content-Type' },
    ]);
  }
  if (!strict) return;
  const missing = ['x-fapi-financial-id', 'x-jws-signature'].filter((h) => !c.req.header(h)?.trim());
  if (missing.length > 0) {
    throw new ObError(
      400,
      `required header${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing`,
      missing.map((h) => ({ ErrorCode: 'UK.OBIE.Header.Missing' as const, Message: `${h} is required`, Path: h })),
    );
  }
  const financialId = c.req.header('x-fapi-financial-id')!.trim();
  if (financialId !== openBankingId) {
    throw new ObError(400, `x-fapi-financial-id must be the participant's id ${openBankingId}`, [
      { ErrorCode: 'UK.OBIE.Header.Invalid', Message: `x-fapi-financial-id ${financialId} is not ${openBankingId}`, Path: 'x-fapi-financial-id' },
    ]);
  }
}

function invalidFormat(message: string): ObError {
  return new ObError(400, message, [{ ErrorCode: 'UK.OBIE.Resource.InvalidFormat', Message: message }]);
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    // Blank is told apart only once parsing failed (a valid body is never blank).
    if (text.trim() === '') throw invalidFormat('request body is empty; a JSON object is required');
    throw invalidFormat(`request body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * POST /v1/participants/{open_banking_id}/open-banking/v3.1/accounts/name-verification: Confirmation
 * of Payee as the participant answers it. Any valid token may ask any participant.
 */
export function nameVerificationRoutes(deps: AppDeps): Hono<AppEnv> {
  const { sim, copStrict } = deps;
  const r = new Hono<AppEnv>();
  // Errors are answered by the route itself (try/catch), not by an onError of this sub-app: Hono
  // wraps every handler of a sub-app with an onError in one more compose per request.
  r.use('*', openBankingEnvelope(deps));
  // One async frame: the checks that need no body, one await for the body, then the rest at once.
  r.post(NAME_VERIFICATION_PATH, async (c) => {
    try {
      const openBankingId = checkRequest(c);
      return answer(c, openBankingId, parseBody(await c.req.text()));
    } catch (err) {
      return obErrorResponse(err, c);
    }
  });

  /** The participant and the headers; the open_banking_id when they hold. */
  function checkRequest(c: Context<AppEnv>): string {
    const openBankingId = c.req.param('open_banking_id')!;
    if (!sim.participants.find(openBankingId)) {
      throw new ObError(404, `participant ${openBankingId} does not exist`, [
        { ErrorCode: 'UK.OBIE.Resource.NotFound', Message: `no participant with open_banking_id ${openBankingId}`, Path: 'open_banking_id' },
      ]);
    }
    headerChecks(c, copStrict === true, openBankingId);
    return openBankingId;
  }

  function answer(c: Context<AppEnv>, openBankingId: string, parsed: unknown): Response {
    const { Data } = validateOb<RequestBody>('name-verification-request', parsed);
    const request: VerificationRequest = {
      accountType: Data.AccountType,
      identification: Data.Identification,
      name: Data.Name,
      secondaryIdentification: Data.SecondaryIdentification,
    };
    const report = sim.nameVerification.verify(openBankingId, request);
    const body = JSON.stringify({ Data: { VerificationReport: report }, Links: { Self: c.req.path }, Meta: {} });
    const res = new Response(body, { status: 200, headers: { 'content-type': 'application/json', [INTERACTION]: c.get('interactionId')! } });
    c.set('interactionStamped', true);
    return res;
  }

  r.all(NAME_VERIFICATION_PATH, (c) =>
    c.json(obErrorBody(405, `method ${c.req.method} is not allowed; allowed: POST`, [{ ErrorCode: 'UK.OBIE.Field.Invalid', Message: 'only POST is allowed' }]), 405, { Allow: 'POST' }),
  );
  r.all('*', (c) =>
    c.json(obErrorBody(404, `route ${c.req.method} ${c.req.path} not found`, [{ ErrorCode: 'UK.OBIE.Resource.NotFound', Message: `no route ${c.req.path}` }]), 404),
  );
  return r;
}
