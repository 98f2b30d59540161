// The responder side of Confirmation of Payee over Hono (in process, msw, and what the Node listener
// leaves to Hono); the rules themselves are the exchange's (name-verification-exchange.ts).
import { type Context, Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context.ts';
import { limitBody } from '../layers/body-limit.ts';
import { exchangeAnswer } from '../open-banking/exchange-answer.ts';
import { JWKS_PATH, NAME_VERIFICATION_PATH, PARTICIPANTS_PREFIX } from '../open-banking/participant-paths.ts';
import { defineRoutes } from '../route-declaration.ts';
import { requestHeader } from '../wire/request-header.ts';

/**
 * The two operations the catch-all below answers, for the OpenAPI document only: mounted as
 * routes, their 404 and 405 would be in Form3's error shape, not Open Banking's.
 */
export const participantOperations = defineRoutes(PARTICIPANTS_PREFIX, 'Confirmation of Payee')
  .answeredElsewhere('POST', NAME_VERIFICATION_PATH.route, {
    summary: 'Verify a payee name (Open Banking CoP v3.1)',
    body: 'name-verification-request',
    answer: 'name-verification-response',
    // Every error here is Open Banking's (docs/cop.md), not Form3's `{error_message}`.
    errors: {
      schema: 'ob-error',
      statuses: {
        400: 'A body or header Open Banking refuses: `Errors[].Path` or the message names the field',
        401: 'No valid token, or a request signature that does not verify',
        404: 'No such participant',
      },
    },
  })
  .answeredElsewhere('GET', JWKS_PATH.route, {
    summary: "A participant's signing keys (JWKS)",
    open: true,
  });

/**
 * POST /v1/participants/{open_banking_id}/open-banking/v3.1/accounts/name-verification: Confirmation
 * of Payee as the participant answers it, GET /v1/participants/{open_banking_id}/jwks.json (its
 * public signing key, no token needed), and the Open Banking 404/405 of everything else under
 * /v1/participants. Any valid token may ask any participant.
 *
 * The Hono adapter of the exchange (app.request(), msw, and URLs the Node adapter leaves to Hono).
 * Mounted ahead of the shared layers, which therefore do not run here: the exchange applies the
 * same body limit and bearer check itself, and answers in Open Banking terms. The shared durability
 * commit is not needed (name verification never changes the store) and the vnd.api+json relabel
 * must not apply (Open Banking answers are application/json).
 */
export function nameVerificationRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.all('*', async (c) => {
    const request = {
      method: c.req.method,
      path: c.req.path,
      // Only a signed request reads it (a URL parse is no cost for every request).
      get target() {
        const url = new URL(c.req.url);
        return `${url.pathname}${url.search}`;
      },
      header: (name: string) => requestHeader(c, name),
    };
    const { answer, clientId } = await exchangeAnswer(deps, request, () => readLimited(c));
    // The request journal files the request under the caller's organisation.
    const organisation = clientId ? deps.clients.get(clientId)?.organisation_id : undefined;
    if (organisation) {
      c.set('clientId', clientId);
      c.set('organisationId', organisation);
    }
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
  return r;
}

/** The body's bytes, held to the shared limit (a chunked body is counted as it arrives). */
async function readLimited(c: Context<AppEnv>): Promise<Uint8Array> {
  let body = new Uint8Array();
  await limitBody(c, async () => {
    body = new Uint8Array(await c.req.arrayBuffer());
  });
  return body;
}
