import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES, tooLarge } from '../api/body-limit.ts';
import type { AppDeps } from '../api/context.ts';
import { ApiError } from '../api/errors.ts';
import {
  type BodySink,
  PARTICIPANTS_PREFIX,
  type ParticipantRequest,
  runParticipantRequest,
} from '../api/open-banking/name-verification-exchange.ts';
import type { ObAnswer } from '../api/open-banking/ob-answer.ts';
import { clip, type JournalEntry, maskHeaders } from '../api/request-journal.ts';

/**
 * Paths the Node adapter answers as they are: /v1/participants and below, made only of characters
 * that need no decoding or normalising (no %, no dot segments, no backslash). Anything else goes to
 * Hono, whose adapter of the same exchange decodes and normalises the URL first.
 */
const PLAIN_PATH = /^\/v1\/participants(?:\/[A-Za-z0-9_~!$&'()*+,;=:@-]+(?:\.[A-Za-z0-9_~!$&'()*+,;=:@-]+)*)*\/?$/;
const PLAIN_HOST = /^[a-z0-9._-]+(?::\d{1,5})?$/;

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
    const path = query === -1 ? url : url.slice(0, query);
    const host = req.headers.host;
    if (!PLAIN_PATH.test(path) || host === undefined || !PLAIN_HOST.test(host)) return false;
    const method = req.method ?? 'GET';
    const journal = deps.journal && new JournalRecord(deps, req, path, url.slice(path.length + 1));
    runParticipantRequest(deps, new NodeParticipantRequest(method, path, req, res, journal));
    return true;
  };
}

/**
 * What the request journal keeps of a request this adapter answers (the Hono layer does the rest).
 * The hot path only notes the time and references; the entry is made when the journal is read.
 */
class JournalRecord {
  readonly #deps: AppDeps;
  // Node's header object and method only: keeping the request itself would keep its socket's graph.
  readonly #headers: IncomingHttpHeaders;
  readonly #method: string;
  readonly #path: string;
  readonly #query: string;
  readonly #started = performance.now();
  readonly #at: Date;
  body: Buffer | undefined;
  constructor(deps: AppDeps, req: IncomingMessage, path: string, query: string) {
    this.#deps = deps;
    this.#headers = req.headers;
    this.#method = req.method ?? 'GET';
    this.#path = path;
    this.#query = query;
    this.#at = deps.sim.wall.now();
  }

  record(answer: ObAnswer, clientId: string): void {
    const duration = Math.round((performance.now() - this.#started) * 1000) / 1000;
    this.#deps.journal?.record(() => this.#entry(answer, duration, clientId || undefined));
  }

  #entry(answer: ObAnswer, duration: number, clientId: string | undefined): Omit<JournalEntry, 'id'> {
    const organisation = clientId ? this.#deps.clients.get(clientId)?.organisation_id : undefined;
    const body = this.body && this.body.length > 0 ? clip(this.body.toString('utf8')) : undefined;
    const answerText = clip(answer.body);
    const errorId = answer.status >= 400 ? /"Id"\s*:\s*"([^"]+)"/.exec(answer.body)?.[1] : undefined;
    return {
      time: this.#at.toISOString(),
      method: this.#method,
      path: this.#path,
      query: this.#query,
      headers: maskHeaders(this.#headers),
      ...(body ? { body: body.text, ...(body.truncated ? { body_truncated: true } : {}) } : {}),
      status: answer.status,
      response_body: answerText.text,
      ...(answerText.truncated ? { response_truncated: true } : {}),
      duration_ms: duration,
      ...(errorId ? { error_code: errorId } : {}),
      ...(clientId ? { client_id: clientId } : {}),
      ...(organisation ? { organisation_id: organisation } : {}),
    };
  }
}

/**
 * Reads the body into the exchange: 413 once more than MAX_BODY_BYTES arrived (the rest is not
 * read), 400 when the body is cut off mid-way (no 'end' comes; nothing to log) while the response
 * can still be written. 'close' also follows every normal end, so errors (and their stacks) are
 * made only when unsettled.
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
  req.once('end', () => {
    if (settled) return;
    settled = true;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    if (journal) journal.body = body;
    sink.bodyRead(body);
  });
  req.once('close', () => {
    if (settled) return;
    settled = true;
    if (!res.destroyed) sink.bodyFailed(new ApiError(400, 'the request body was cut off before its end'));
  });
  req.once('error', () => undefined); // an aborted request; 'close' follows and answers
}
