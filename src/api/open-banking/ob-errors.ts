// The Open Banking error body (OBErrorResponse1) that the name-verification route answers with,
// for its own errors and for those of the shared layers (bearer auth, body limit) on its path.
import { randomUUID } from 'node:crypto';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { SignatureErrorCode } from '../../signatures/jws-profile.ts';
import { DomainError } from '../../sim/errors.ts';
import { clientAbortLine, isClientAbort } from '../client-abort.ts';
import { ApiError, statusOf } from '../errors.ts';

export type ObErrorCode =
  | 'UK.OBIE.Field.Missing'
  | 'UK.OBIE.Field.Invalid'
  | 'UK.OBIE.Header.Missing'
  | 'UK.OBIE.Header.Invalid'
  | 'UK.OBIE.Resource.InvalidFormat'
  | 'UK.OBIE.Resource.NotFound'
  | 'UK.OBIE.UnexpectedError'
  | SignatureErrorCode;

export interface ObErrorItem {
  ErrorCode: ObErrorCode;
  Message: string;
  Path?: string;
}

export interface ObErrorBody {
  Code: string;
  Id: string;
  Message: string;
  Errors: ObErrorItem[];
}

const REASON: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableEntity',
  500: 'InternalServerError',
};

/** An error of the name-verification route, already in Open Banking terms. */
export class ObError extends Error {
  readonly status: ContentfulStatusCode;
  readonly errors: ObErrorItem[];
  readonly headers: Record<string, string>;
  constructor(
    status: ContentfulStatusCode,
    message: string,
    errors: ObErrorItem[],
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.headers = headers;
    this.name = 'ObError';
  }
}

export function obErrorBody(status: number, message: string, errors: ObErrorItem[]): ObErrorBody {
  return { Code: `${status} ${REASON[status] ?? 'Error'}`, Id: randomUUID(), Message: message, Errors: errors };
}

/** What of a request the error mapping reads (either adapter of name verification supplies it). */
export interface ObRequestInfo {
  method: string;
  path: string;
  /** Path and query as sent, undecoded (a signed request signs them): the path when not given. */
  target?: string;
  /** A request header by lower-case name. */
  header(name: string): string | undefined;
}

/** Anything thrown on the route's path as an Open Banking error; a 500 is logged and says nothing of internals. */
export function toObError(err: unknown, c: ObRequestInfo): ObError {
  if (err instanceof ObError) return err;
  if (err instanceof ApiError) {
    if (err.status === 401) {
      const missing = !c.header('authorization');
      return new ObError(
        401,
        err.message,
        [
          {
            ErrorCode: missing ? 'UK.OBIE.Header.Missing' : 'UK.OBIE.Header.Invalid',
            Message: err.message,
            Path: 'Authorization',
          },
        ],
        err.headers,
      );
    }
    const code = err.status === 400 ? 'UK.OBIE.Resource.InvalidFormat' : 'UK.OBIE.Field.Invalid';
    return new ObError(err.status, err.message, [{ ErrorCode: code, Message: err.message }], err.headers);
  }
  if (err instanceof DomainError) {
    const code = err.kind === 'not_found' ? 'UK.OBIE.Resource.NotFound' : 'UK.OBIE.Field.Invalid';
    return new ObError(statusOf(err.kind), err.message, [{ ErrorCode: code, Message: err.message }]);
  }
  if (err instanceof HTTPException) {
    const message = err.message || 'request rejected';
    return new ObError(err.status as ContentfulStatusCode, message, [
      { ErrorCode: 'UK.OBIE.Field.Invalid', Message: message },
    ]);
  }
  if (isClientAbort(err)) {
    console.info(clientAbortLine(c.method, c.path));
    const message = 'the request ended before its body was complete';
    return new ObError(400, message, [{ ErrorCode: 'UK.OBIE.Resource.InvalidFormat', Message: message }]);
  }
  const id = randomUUID();
  console.error(`scheme-sim: 500 ${c.method} ${c.path} id=${id}`, err);
  return new ObError(500, 'internal error; quote the Id when reporting it', [
    { ErrorCode: 'UK.OBIE.UnexpectedError', Message: 'internal error' },
  ]);
}
