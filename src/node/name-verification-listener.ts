// Name verification has the tightest budget (docs/design.md): its Node adapter answers straight from
// Node's request and response, skipping Hono and web Requests (decision 001).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../api/context.ts';
import { headerPairs } from '../api/journal/journal-codec.ts';
import { MAX_BODY_BYTES, tooLarge } from '../api/layers/body-limit.ts';
import {
  type BodySink,
  type ParticipantRequest,
  runParticipantRequest,
} from '../api/open-banking/name-verification-exchange.ts';
import type { ObAnswer } from '../api/open-banking/ob-answer.ts';
import { PARTICIPANTS_PREFIX } from '../api/open-banking/participant-paths.ts';
import { ApiError } from '../api/wire/errors.ts';
import { rememberLast } from '../sim/remember-last.ts';

/**
 * Paths the Node adapter answers as they are: /v1/participants and below, made only of characters
 * that need no decoding or normalising (no %, no dot segments, no backslash). Anything else goes to
 * Hono, whose adapter of the same exchange decodes and normalises the URL first.
 */
const PLAIN_SEGMENT = "[A-Za-z0-9_~!$&'()*+,;=:@-]+";
const PLAIN_PATH = new RegExp(`^${PARTICIPANTS_PREFIX}(?:/${PLAIN_SEGMENT}(?:\\.${PLAIN_SEGMENT})*)*/?$`);
const PLAIN_HOST = /^[a-z0-9._-]+(?::\d{1,5})?$/;

/**
 * `path` when it is plain, else undefined. A client asks one participant's path again and again:
 * the same text skips the expression (rememberLast), and the path is handed on as the string kept,
 * whose hash the look-ups keyed by it (the route's id, the answer bodies) have worked out already.
 */
const asPlainPath = rememberLast((path: string) => (PLAIN_PATH.test(path) ? path : undefined));
const plainHost = rememberLast((host: string) => PLAIN_HOST.test(host));

/**
 * A Node request as the exchange reads it, and where its answer is written (a class: no closure
 * per request).
 */
class NodeParticipantRequest implements ParticipantRequest {
  readonly method: string;
  readonly path: string;
  readonly target: string;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #journal: JournalRecord | undefined;
  constructor(method: string, path: string, req: IncomingMessage, res: ServerResponse, journal?: JournalRecord) {
    this.method = method;
    this.path = path;
    this.target = req.url ?? path;
    this.#req = req;
    this.#res = res;
    this.#journal = journal;
  }

  /** Node has lower-cased, trimmed and checked the headers; repeated ones are joined as Headers would. */
  header(name: string): string | undefined {
    const value = this.#req.headers[name];
    return typeof value === 'string' || value === undefined ? value : value.join(', ');
  }

  readBody(sink: BodySink): void {
    readBody(this.#req, this.#res, sink, this.#journal);
  }

  /** Writes the answer, unless the response is gone (the client went away while it was signed). */
  reply(answer: ObAnswer, clientId: string): void {
    const res = this.#res;
    if (res.destroyed) return;
    if (answer.status === 413) res.shouldKeepAlive = false; // the rest of the body is not read
    answer.headers['content-length'] = String(Buffer.byteLength(answer.body)); // the answer is this request's own
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
    this.#journal?.record(answer, clientId);
  }
}

/**
 * The Node adapter of name verification for the real server: answers a request under
 * /v1/participants straight from Node's request and response objects, with no web Request or
 * Response built and no promise (the hot path of name verification; docs/design.md sets its budget
 * against a bare Hono handler). Returns false, touching nothing, for any request it leaves to Hono.
 */
export function nameVerificationListener(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const url = req.url ?? '';
    // A browser's request (it names its Origin) is Hono's: its CORS layer answers the preflight
    // before any authentication and adds the CORS headers to the answer.
    if (!url.startsWith(PARTICIPANTS_PREFIX) || req.headers.origin !== undefined) return false;
    const query = url.indexOf('?');
    const path = asPlainPath(query === -1 ? url : url.slice(0, query));
    const host = req.headers.host;
    if (path === undefined || host === undefined || !plainHost(host)) return false;
    const method = req.method ?? 'GET';
    const journal = deps.journal && new JournalRecord(deps, req);
    runParticipantRequest(deps, new NodeParticipantRequest(method, path, req, res, journal));
    return true;
  };
}

/**
 * What the request journal keeps of a request this adapter answers (the Hono layer does the rest):
 * noted as it arrives and handed to the journal, which keeps it as bytes, when it is answered.
 */
class JournalRecord {
  readonly #deps: AppDeps;
  readonly #req: IncomingMessage;
  readonly #started = performance.now();
  readonly #at: number;
  readonly #schemeAt: number;
  body: Buffer | undefined;
  constructor(deps: AppDeps, req: IncomingMessage) {
    this.#deps = deps;
    this.#req = req;
    this.#at = deps.sim.wall.now().getTime();
    this.#schemeAt = deps.sim.clock.now().getTime();
  }

  record(answer: ObAnswer, clientId: string): void {
    const req = this.#req;
    this.#deps.journal?.recordNoted({
      at: this.#at,
      schemeAt: this.#schemeAt,
      durationUs: (performance.now() - this.#started) * 1000,
      method: req.method ?? 'GET',
      target: req.url ?? '',
      headers: headerPairs(req.headers),
      status: answer.status,
      clientId: clientId || undefined,
      organisationId: clientId ? this.#deps.clients.get(clientId)?.organisation_id : undefined,
      body: this.body && this.body.length > 0 ? this.body : undefined,
      answer: answer.body,
      errorKey: 'Id',
    });
  }
}

/**
 * Reads the body into the exchange: 413 once more than MAX_BODY_BYTES arrived (the rest is not
 * read), 400 when the body is cut off mid-way (no 'end' comes; nothing to log) while the response
 * can still be written. 'close' also follows every normal end, so errors (and their stacks) are
 * made only when unsettled. Listeners are added with on(), not once(): `settled` already ignores a
 * second call, and once() makes a wrapper per listener and request.
 */
function readBody(req: IncomingMessage, res: ServerResponse, sink: BodySink, journal: JournalRecord | undefined): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  req.on('data', (chunk: Buffer) => {
    if (settled) return;
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
    settled = true;
    req.pause();
    sink.bodyFailed(tooLarge());
  });
  req.on('end', () => {
    if (settled) return;
    settled = true;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    if (journal) journal.body = body;
    sink.bodyRead(body);
  });
  req.on('close', () => {
    if (settled) return;
    settled = true;
    if (!res.destroyed) sink.bodyFailed(new ApiError(400, 'the request body was cut off before its end'));
  });
  req.on('error', () => undefined); // an aborted request; 'close' follows and answers
}
