// Name verification as one framework-free exchange: request line, headers and a way to read the
// body in; status, headers and body out. Both adapters call it, so the rules live here once:
// the Hono route (app.request(), msw, any non-plain URL) and the Node listener of the real server
// (which answers the hot path without building web Request/Response objects).
import { randomUUID } from 'node:crypto';
import type { VerificationRequest } from '../../sim/cop/decide.ts';
import { verifyBearer } from '../auth/middleware.ts';
import { mediaType } from '../body.ts';
import { checkDeclaredLength } from '../body-limit.ts';
import type { AppDeps } from '../context.ts';
import { negotiate } from '../negotiate.ts';
import { ObError, type ObRequestInfo, obErrorBody, toObError } from './ob-errors.ts';
import { validateOb } from './ob-validate.ts';

export const INTERACTION = 'x-fapi-interaction-id';
/** Everything under this prefix answers in Open Banking terms. */
export const PARTICIPANTS_PREFIX = '/v1/participants';
const ROUTE = /^\/v1\/participants\/([^/]+)\/open-banking\/v3\.1\/accounts\/name-verification$/;

/** An answer ready to write: the adapters only copy it onto their response. */
export interface ObAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface RequestBody {
  Data: {
    SchemeName: string;
    AccountType: 'Personal' | 'Business';
    Identification: string;
    Name: string;
    SecondaryIdentification?: string;
  };
}

/**
 * One request under /v1/participants, in two synchronous steps around reading the body (no promise
 * of its own: the Node adapter runs it from its socket callbacks). The constructor runs the checks
 * that need no body, in the order of the shared layers: the declared body size (413), the bearer
 * token (401), the route (404, 405), the participant (404), the headers (406, 415, strict 400);
 * when one fails, `early` holds the answer and the body need not be read. `answer(text)` then
 * parses and validates the body (400) and verifies. Every answer carries x-fapi-interaction-id,
 * echoed or generated. A class, not closures: tsx names every per-request closure at run time.
 */
export class NameVerificationExchange {
  readonly interactionId: string;
  /** The answer decided before the body, when a check failed. */
  readonly early: ObAnswer | undefined;
  readonly #deps: AppDeps;
  readonly #req: ObRequestInfo;
  readonly #openBankingId: string = '';

  constructor(deps: AppDeps, req: ObRequestInfo) {
    this.#deps = deps;
    this.#req = req;
    this.interactionId = req.header(INTERACTION)?.trim() || randomUUID();
    try {
      checkDeclaredLength(req.header('content-length'));
      verifyBearer(req.header('authorization'), deps);
      const openBankingId = routeOf(req);
      if (!deps.sim.participants.find(openBankingId)) {
        throw new ObError(404, `participant ${openBankingId} does not exist`, [
          {
            ErrorCode: 'UK.OBIE.Resource.NotFound',
            Message: `no participant with open_banking_id ${openBankingId}`,
            Path: 'open_banking_id',
          },
        ]);
      }
      headerChecks(req, deps.copStrict === true, openBankingId);
      this.#openBankingId = openBankingId;
    } catch (err) {
      this.early = this.fail(err);
    }
  }

  /** The answer to the body `text` (call only when `early` is undefined). */
  answer(text: string): ObAnswer {
    try {
      const { Data } = validateOb<RequestBody>('name-verification-request', parseBody(text));
      const request: VerificationRequest = {
        accountType: Data.AccountType,
        identification: Data.Identification,
        name: Data.Name,
        secondaryIdentification: Data.SecondaryIdentification,
      };
      const report = this.#deps.sim.nameVerification.verify(this.#openBankingId, request);
      const body = JSON.stringify({ Data: { VerificationReport: report }, Links: { Self: this.#req.path }, Meta: {} });
      return { status: 200, headers: { 'content-type': 'application/json', [INTERACTION]: this.interactionId }, body };
    } catch (err) {
      return this.fail(err);
    }
  }

  /** The Open Banking error answer for anything thrown (reading the body included). */
  fail(err: unknown): ObAnswer {
    const e = toObError(err, this.#req);
    return {
      status: e.status,
      headers: { ...e.headers, 'content-type': 'application/json', [INTERACTION]: this.interactionId },
      body: JSON.stringify(obErrorBody(e.status, e.message, e.errors)),
    };
  }
}

/**
 * The open_banking_id of the name-verification route; 404 off the route, 405 for a method but POST.
 * `path` arrives decoded as Hono decodes it (the Node adapter takes only paths with nothing to decode).
 */
function routeOf(req: ObRequestInfo): string {
  const match = ROUTE.exec(req.path);
  if (!match) {
    throw new ObError(404, `route ${req.method} ${req.path} not found`, [
      { ErrorCode: 'UK.OBIE.Resource.NotFound', Message: `no route ${req.path}` },
    ]);
  }
  if (req.method !== 'POST') {
    throw new ObError(
      405,
      `method ${req.method} is not allowed; allowed: POST`,
      [{ ErrorCode: 'UK.OBIE.Field.Invalid', Message: 'only POST is allowed' }],
      { Allow: 'POST' },
    );
  }
  return match[1]!;
}

/**
 * Accept absent, or allowing application/json by the shared negotiation rules (the most specific
 * range decides, so `application/json;q=0` with a wildcard refuses JSON). Common values skip parsing.
 */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept === 'application/json' || accept === '*/*') return true;
  return negotiate(accept, ['application/json']) !== null;
}

function headerChecks(req: ObRequestInfo, strict: boolean, openBankingId: string): void {
  const accept = req.header('accept');
  if (!acceptsJson(accept)) {
    throw new ObError(406, 'Accept must allow application/json', [
      {
        ErrorCode: 'UK.OBIE.Header.Invalid',
        Message: `Accept ${accept} does not allow application/json`,
        Path: 'Accept',
      },
    ]);
  }
  const contentType = req.header('content-type');
  const type = contentType === 'application/json' ? contentType : mediaType(contentType);
  if (type !== 'application/json') {
    throw new ObError(415, `Content-Type must be application/json, got ${type || 'none'}`, [
      { ErrorCode: 'UK.OBIE.Header.Invalid', Message: 'Content-Type must be application/json', Path: 'Content-Type' },
    ]);
  }
  if (!strict) return;
  const missing = ['x-fapi-financial-id', 'x-jws-signature'].filter((h) => !req.header(h)?.trim());
  if (missing.length > 0) {
    throw new ObError(
      400,
      `required header${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing`,
      missing.map((h) => ({ ErrorCode: 'UK.OBIE.Header.Missing' as const, Message: `${h} is required`, Path: h })),
    );
  }
  const financialId = req.header('x-fapi-financial-id')!.trim();
  if (financialId !== openBankingId) {
    throw new ObError(400, `x-fapi-financial-id must be the participant's id ${openBankingId}`, [
      {
        ErrorCode: 'UK.OBIE.Header.Invalid',
        Message: `x-fapi-financial-id ${financialId} is not ${openBankingId}`,
        Path: 'x-fapi-financial-id',
      },
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
