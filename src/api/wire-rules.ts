import type { Context } from 'hono';
import type { Rules } from '../sim/mode.ts';
import { errorBody } from './errors.ts';

/**
 * How the HTTP surface reads and answers where the fake account API's server differs from Form3's,
 * chosen once from the mode (`Mode.wire`) when the app is made. The fake API
 * (form3tech-oss/interview-accountapi) is a go-swagger server; clients written against it rely on
 * three things Form3's API is not known to do (../shared/reference/form3-contract.md §13):
 * - it reads a body sent without `Content-Type` as JSON (Form3's API: 415);
 * - a path it does not route is go-openapi's own 404, `{"code":404,"message":"path <p> was not
 *   found"}` (go-openapi runtime `middleware/router.go` and `errors/api.go`, vendored in go-form3),
 *   with no `error_message`;
 * - every answer without a body says `Content-Length: 0`, a 204 too.
 * An empty answer other than a 204 says `Content-Length: 0` under both rules: without it Node sends
 * it chunked, and a client that tests `ContentLength == 0` (Go's `-1` for chunked) reads it as a
 * body. A 204 carries no Content-Length under Form3's rules (RFC 9110 §8.6).
 */
export interface WireRules {
  /** A body sent without `Content-Type` is read as JSON (else refused with a 415). */
  readonly untypedBodyIsJson: boolean;
  /** The answer to a path no route serves. */
  notFound(c: Context): Response;
  /** Completes the headers of an answer that has no body. */
  finishEmpty(res: Response): void;
}

/** The wire under these rules. */
export function wireRules(rules: Rules): WireRules {
  return rules === 'fake-account-api' ? FAKE_ACCOUNT_API : FORM3;
}

const FORM3: WireRules = {
  untypedBodyIsJson: false,
  notFound: (c) => c.json(errorBody(`route ${c.req.method} ${c.req.path} not found`), 404),
  finishEmpty: (res) => {
    if (res.status !== 204) res.headers.set('content-length', '0');
  },
};

const FAKE_ACCOUNT_API: WireRules = {
  untypedBodyIsJson: true,
  // go-openapi's message names r.URL.EscapedPath(): a URL's pathname is escaped the same way.
  notFound: (c) => c.json({ code: 404, message: `path ${new URL(c.req.url).pathname} was not found` }, 404),
  finishEmpty: (res) => res.headers.set('content-length', '0'),
};
