import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DateRangeError } from '../clock/dates.ts';
import { DomainError, type DomainErrorKind } from '../sim/errors.ts';
import { clientAbortLine, isClientAbort } from './client-abort.ts';

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

const STATUS_OF: Record<DomainErrorKind, ContentfulStatusCode> = {
  invalid: 400,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  unprocessable: 422,
  rate_limited: 429,
};

export function statusOf(kind: DomainErrorKind): ContentfulStatusCode {
  return STATUS_OF[kind];
}

/**
 * A 413 leaves the rest of the body unread, so the connection cannot carry another request: say
 * so, or a keep-alive client reuses a socket the server is about to drop ("other side closed").
 */
const CLOSE = { Connection: 'close' };

/** Turns anything thrown by a route into the error body; a 500 is logged and says nothing of internals. */
export function toErrorResponse(err: unknown, c: Context): Response {
  if (err instanceof ApiError) {
    return c.json(errorBody(err.message), err.status, err.status === 413 ? { ...CLOSE, ...err.headers } : err.headers);
  }
  if (err instanceof DomainError) {
    const headers: Record<string, string> =
      err.retryAfterSeconds !== undefined ? { 'Retry-After': String(err.retryAfterSeconds) } : {};
    return c.json(errorBody(err.message), STATUS_OF[err.kind], headers);
  }
  if (err instanceof DateRangeError) {
    // Date arithmetic that left the supported range (a scheme clock near its end): the state of
    // the simulator refuses the request; routes that know the field at fault answer 400 first.
    return c.json(errorBody(`the request needs a date the simulator does not support: ${err.message}`), 409);
  }
  if (err instanceof HTTPException) {
    return c.json(
      errorBody(err.message || 'request rejected'),
      err.status as ContentfulStatusCode,
      err.status === 413 ? CLOSE : {},
    );
  }
  if (isClientAbort(err)) {
    console.info(clientAbortLine(c.req.method, c.req.path));
    return c.json(errorBody('the request ended before its body was complete'), 400, CLOSE);
  }
  const body = errorBody('internal error; quote the error_code when reporting it');
  console.error(`scheme-sim: 500 ${c.req.method} ${c.req.path} error_code=${body.error_code}`, err);
  return c.json(body, 500);
}

/** For a path whose route exists but not with this method. */
export function methodNotAllowed(allowed: string[]) {
  return (c: Context) => {
    return c.json(
      errorBody(`method ${c.req.method} is not allowed on ${c.req.path}; allowed: ${allowed.join(', ')}`),
      405,
      {
        Allow: allowed.join(', '),
      },
    );
  };
}
