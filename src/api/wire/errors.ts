// Every error a route answers, in Form3's shape (or the token endpoint's OAuth one), from one table
// of what a thrown error means: a client's mistake names the field and rule, a 500 says nothing.
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DateRangeError } from '../../clock/dates.ts';
import { DomainError, type DomainErrorKind } from '../../sim/errors.ts';
import { LeaseLostError } from '../../store/store-error.ts';
import { clientAbortLine, isClientAbort } from '../body/client-abort.ts';

/** An error a client caused or should see; the message names the field and the rule. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly headers: Record<string, string>;
  constructor(status: ContentfulStatusCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
    this.name = 'ApiError';
  }
}

export interface ErrorBody {
  error_message: string;
  error_code: string;
}

/** error_code is a fresh UUID per error so a client can quote it and we can find it in the log. */
export function errorBody(message: string): ErrorBody {
  return { error_message: message, error_code: randomUUID() };
}

/** The token endpoint: every error it answers has the shape of oauthErrorBody. */
export const TOKEN_PATH = '/v1/oauth2/token';

/** The RFC 6749 §5.2 error codes the token endpoint answers. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type';

/** A refusal of the token endpoint naming its RFC 6749 §5.2 code. */
export class OAuthError extends ApiError {
  readonly code: OAuthErrorCode;
  constructor(status: ContentfulStatusCode, code: OAuthErrorCode, message: string, headers?: Record<string, string>) {
    super(status, message, headers);
    this.code = code;
    this.name = 'OAuthError';
  }
}

/**
 * An error of the token endpoint, one shape whatever refused it: RFC 6749 §5.2's `error` and
 * `error_description`, so OAuth client libraries read it, beside Form3's `error_message` and
 * `error_code`. Without a code, a refused client (401, 403) is `invalid_client`, anything else
 * `invalid_request`.
 */
export function oauthErrorBody(
  status: number,
  message: string,
  code?: OAuthErrorCode,
): ErrorBody & { error: OAuthErrorCode; error_description: string } {
  const error = code ?? (status === 401 || status === 403 ? 'invalid_client' : 'invalid_request');
  return { error, error_description: message, ...errorBody(message) };
}

const STATUS_OF: Record<DomainErrorKind, ContentfulStatusCode> = {
  invalid: 400,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  unprocessable: 422,
  rate_limited: 429,
};

/**
 * A 413 leaves the rest of the body unread, so the connection cannot carry another request: say
 * so, or a keep-alive client reuses a socket the server is about to drop ("other side closed").
 */
const CLOSE = { Connection: 'close' };

/**
 * What anything thrown while answering a request means for the answer: the one table both error
 * shapes (Form3's below, Open Banking's in open-banking/ob-errors.ts) are drawn from.
 * - `refused`: an ApiError or Hono's HTTPException, with its status;
 * - `domain`: a DomainError, its kind's status (`domainKind` says which);
 * - `date_range`: date arithmetic that left the supported range (a scheme clock near its end): the
 *   state of the simulator refuses the request, 409 (routes that know the field at fault answer 400 first);
 * - `cut_off`: the client ended the request before its body was complete, 400;
 * - `internal`: anything else, a 500 that says nothing of internals, logged with `id`.
 */
export interface Failure {
  kind: 'refused' | 'domain' | 'date_range' | 'cut_off' | 'internal';
  status: ContentfulStatusCode;
  message: string;
  headers: Record<string, string>;
  domainKind?: DomainErrorKind;
  /** For `internal`: the id the answer quotes and the log names. */
  id?: string;
}

/** The failure `err` is, for a request of this method and path (logged when cut off or internal). */
export function failureOf(err: unknown, req: { method: string; path: string }): Failure {
  if (err instanceof ApiError || err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const headers = err instanceof ApiError ? err.headers : {};
    return {
      kind: 'refused',
      status,
      message: err.message || 'request rejected',
      headers: status === 413 ? { ...CLOSE, ...headers } : headers,
    };
  }
  if (err instanceof LeaseLostError) {
    // A node of a shared double whose lease went while it answered: nothing landed, and the
    // world's next owner answers the retry (issue 43: 503 with Retry-After, never a 500). The log
    // says so, as the node's operator is the one to see a lease lost under their load.
    console.warn(`scheme-sim: 503 ${req.method} ${req.path}: ${err.message}`);
    return { kind: 'refused', status: 503, message: err.message, headers: { 'Retry-After': '1' } };
  }
  if (err instanceof DomainError) {
    const headers: Record<string, string> =
      err.retryAfterSeconds !== undefined ? { 'Retry-After': String(err.retryAfterSeconds) } : {};
    return { kind: 'domain', status: STATUS_OF[err.kind], message: err.message, headers, domainKind: err.kind };
  }
  if (err instanceof DateRangeError) {
    const message = `the request needs a date the simulator does not support: ${err.message}`;
    return { kind: 'date_range', status: 409, message, headers: {} };
  }
  if (isClientAbort(err)) {
    console.info(clientAbortLine(req.method, req.path));
    return { kind: 'cut_off', status: 400, message: 'the request ended before its body was complete', headers: CLOSE };
  }
  const id = randomUUID();
  console.error(`scheme-sim: 500 ${req.method} ${req.path} error_code=${id}`, err);
  return { kind: 'internal', status: 500, message: 'internal error', headers: {}, id };
}

/**
 * Turns anything thrown by a route into Form3's error body, or the fake account API's where the
 * wire says (--auth off; a request refused before the wire is known gets Form3's). A 500 always
 * quotes its error_code: it is the simulator's own failure, and the log names it.
 */
export function toErrorResponse(err: unknown, c: Context): Response {
  const f = failureOf(err, { method: c.req.method, path: c.req.path });
  if (f.kind === 'internal')
    return c.json({ error_message: 'internal error; quote the error_code when reporting it', error_code: f.id! }, 500);
  if (c.req.path === TOKEN_PATH)
    return c.json(
      oauthErrorBody(f.status, f.message, err instanceof OAuthError ? err.code : undefined),
      f.status,
      f.headers,
    );
  // WireRules (wire-rules.ts, which builds on this file) by the one member read here.
  const wire = c.get('wire') as { errorBody(message: string): object } | undefined;
  return c.json(wire ? wire.errorBody(f.message) : errorBody(f.message), f.status, f.headers);
}

/** For a path whose route exists but not with this method. */
export function methodNotAllowed(allowed: string[]) {
  return (c: Context) => {
    const message = `method ${c.req.method} is not allowed on ${c.req.path}; allowed: ${allowed.join(', ')}`;
    return c.json(c.req.path === TOKEN_PATH ? oauthErrorBody(405, message) : errorBody(message), 405, {
      Allow: allowed.join(', '),
    });
  };
}
