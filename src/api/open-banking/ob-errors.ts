// The Open Banking error body (OBErrorResponse1) that the name-verification route answers with,
// for its own errors and for those of the shared layers (bearer auth, body limit) on its path.
import { randomUUID } from 'node:crypto';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { SignatureErrorCode } from '../../signatures/jws-profile.ts';
import { type Failure, failureOf } from '../wire/errors.ts';

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
  /** The body's Id: a 500's is the one its log line names; otherwise fresh. */
  readonly id: string | undefined;
  constructor(
    status: ContentfulStatusCode,
    message: string,
    errors: ObErrorItem[],
    headers: Record<string, string> = {},
    id?: string,
  ) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.headers = headers;
    this.id = id;
    this.name = 'ObError';
  }
}

export function obErrorBody(status: number, message: string, errors: ObErrorItem[], id?: string): ObErrorBody {
  return { Code: `${status} ${REASON[status] ?? 'Error'}`, Id: id ?? randomUUID(), Message: message, Errors: errors };
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

/** The error code of a failure in Open Banking terms (the failures themselves: failureOf, ../errors.ts). */
function obCodeOf(f: Failure, c: ObRequestInfo): ObErrorItem {
  if (f.kind === 'refused' && f.status === 401)
    return {
      ErrorCode: c.header('authorization') ? 'UK.OBIE.Header.Invalid' : 'UK.OBIE.Header.Missing',
      Message: f.message,
      Path: 'Authorization',
    };
  if (f.kind === 'internal') return { ErrorCode: 'UK.OBIE.UnexpectedError', Message: f.message };
  const invalidFormat = (f.kind === 'refused' && f.status === 400) || f.kind === 'cut_off';
  const notFound = f.kind === 'domain' && f.domainKind === 'not_found';
  return {
    ErrorCode: invalidFormat
      ? 'UK.OBIE.Resource.InvalidFormat'
      : notFound
        ? 'UK.OBIE.Resource.NotFound'
        : 'UK.OBIE.Field.Invalid',
    Message: f.message,
  };
}

/** Anything thrown on the route's path as an Open Banking error; a 500 is logged and says nothing of internals. */
export function toObError(err: unknown, c: ObRequestInfo): ObError {
  if (err instanceof ObError) return err;
  const f = failureOf(err, c);
  const message = f.kind === 'internal' ? 'internal error; quote the Id when reporting it' : f.message;
  return new ObError(f.status, message, [obCodeOf(f, c)], f.headers, f.id);
}
