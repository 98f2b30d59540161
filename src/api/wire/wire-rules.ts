// Clients written against Form3's fake account API test its answers byte for byte: the one place
// where the HTTP layer reads and answers its way instead of Form3's (decision 023).
import type { Context } from 'hono';
import type { Rules } from '../../sim/mode.ts';
import { errorBody } from './errors.ts';

/**
 * How the HTTP surface reads and answers where the fake account API's server differs from Form3's,
 * chosen once from the mode (`Mode.wire`) when the app is made. The fake API
 * (form3tech-oss/interview-accountapi) answers otherwise than Form3's API in ways clients written
 * against it test byte for byte (../shared/reference/form3-contract.md §13; the public client tests
 * each rule cites, asserting what the fake API's container answered):
 * - it reads a body sent without `Content-Type` as JSON (Form3's API: 415), and one sent as
 *   `application/vnd.Form3+json` (media types match in any case), as clients written for its
 *   current image send it;
 * - an error body is `{"error_message": …}` alone, without Form3's `error_code` (clients compare
 *   the whole body, e.g. `{"error_message":"record <id> does not exist"}`);
 * - a path it does not route is `{"code":"PAGE_NOT_FOUND","message":"Page not found"}` (asserted
 *   for `GET /` and for `DELETE /v1/organisation/accounts/?version=`), with no `error_message`;
 * - a `version` query that is not a number (`?version=` asserted; absent or another text the same
 *   failed parse, inferred) is `invalid version number`;
 * - every answer without a body says `Content-Length: 0`, a 204 too;
 * - it serves `GET /v1/health`, `{"status":"up"}` (clients wait for it before their tests); Form3's
 *   public API definition (go-form3's client) has no such operation, so Form3's wire has no route.
 * An empty answer other than a 204 says `Content-Length: 0` under both rules: without it Node sends
 * it chunked, and a client that tests `ContentLength == 0` (Go's `-1` for chunked) reads it as a
 * body. A 204 carries no Content-Length under Form3's rules (RFC 9110 §8.6).
 */
export interface WireRules {
  /** A body sent without `Content-Type` is read as JSON (else refused with a 415). */
  readonly untypedBodyIsJson: boolean;
  /** Media types (lower case) read as JSON besides application/json and application/vnd.api+json. */
  readonly moreJsonMediaTypes: readonly string[];
  /** The body of an error answer with this message. */
  errorBody(message: string): object;
  /** The message of a 400 for a `version` query that is missing or not a number; undefined: name the rule. */
  readonly versionRefusal?: string;
  /** The answer to a path no route serves. */
  notFound(c: Context): Response;
  /** Completes the headers of an answer that has no body. */
  finishEmpty(res: Response): void;
  /** The answer to `GET /v1/health`; undefined: no such route. */
  readonly health?: { readonly status: string };
}

/** The wire under these rules. */
export function wireRules(rules: Rules): WireRules {
  return rules === 'fake-account-api' ? FAKE_ACCOUNT_API : FORM3;
}

const FORM3: WireRules = {
  untypedBodyIsJson: false,
  moreJsonMediaTypes: [],
  errorBody,
  notFound: (c) => c.json(errorBody(`route ${c.req.method} ${c.req.path} not found`), 404),
  finishEmpty: (res) => {
    if (res.status !== 204) res.headers.set('content-length', '0');
  },
};

const FAKE_ACCOUNT_API: WireRules = {
  untypedBodyIsJson: true,
  moreJsonMediaTypes: ['application/vnd.form3+json'],
  errorBody: (message) => ({ error_message: message }),
  versionRefusal: 'invalid version number',
  notFound: (c) => c.json({ code: 'PAGE_NOT_FOUND', message: 'Page not found' }, 404),
  finishEmpty: (res) => res.headers.set('content-length', '0'),
  health: { status: 'up' },
};
