// The layer that feeds the request journal (GET /v1/simulator/requests, `scheme-sim logs`): every
// request and its answer, at a cost the hot path can bear.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';
import { answerHeader, answerText } from '../wire/answer-header.ts';
import { headerPairs } from './journal-codec.ts';
import { JOURNAL_BODY_LIMIT, type NotedRequest, type RequestJournal } from './request-journal.ts';

/**
 * The journal's own readers, never journaled: reading the journal (or following it live) must not
 * add to it, or a dashboard or `logs --follow` would fill it with their own polls.
 */
const JOURNAL_READERS = new Set(['/v1/simulator/requests', '/v1/simulator/stream']);

const TEXTUAL = /^(application\/(.*\+)?(json|xml|x-www-form-urlencoded)|text\/)/;

/** What @hono/node-server hands the app as `c.env` when a real server serves it. */
interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

/**
 * Records every request and its answer in the journal (the outermost layer, so refusals by the
 * auth and fault layers are seen too), with the wall time and the scheme clock's time it arrived at. A request pays only for being noted as bytes: the entry
 * (masking, the URL split) is made when the journal is read.
 *
 * The answer's text, so the request log sees an error's error_code: the string @hono/node-server's
 * light Response holds, which it writes as it is (answer-header.ts), recorded as it leaves this
 * layer, with no copy made nor Node's response wrapped. Any other answer served by Node (the real
 * server): the bytes handed to Node's response as it writes them, recorded then. No web
 * Response is cloned or turned into a stream, which would push @hono/node-server off its fast
 * path of writing a string answer in one call. In process (app.request(), msw) there is no Node
 * response, and a textual answer is read from a clone, as nothing else reads it there.
 */
export function journalLayer(
  journal: RequestJournal,
  now: () => Date,
  schemeNow: () => Date,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (journal.size === 0 && !journal.listened) return next();
    if (c.req.method === 'GET' && JOURNAL_READERS.has(c.req.path)) return next();
    const started = performance.now();
    const at = now().getTime();
    const schemeAt = schemeNow().getTime();
    await next();
    const env = c.env as NodeBindings | undefined;
    const res = c.res;
    const noted: NotedRequest = {
      at,
      schemeAt,
      durationUs: 0,
      method: c.req.method,
      target: env?.incoming?.url ?? c.req.url,
      headers: headerPairs(env?.incoming?.headers ?? c.req.raw.headers),
      status: res.status,
      clientId: c.get('clientId'),
      organisationId: c.get('organisationId'),
      body: undefined,
      answer: undefined,
      errorKey: 'error_code',
    };
    const body = requestBodyRead(c);
    const record = (answer: NotedRequest['answer']) => {
      noted.durationUs = (performance.now() - started) * 1000;
      noted.answer = answer;
      recordWhenRead(journal, noted, body);
    };
    const textual = TEXTUAL.test(answerHeader(res, 'content-type') ?? '');
    // Only while the answer is still the one that can be made again (not replaced after it, e.g.
    // by an error), and sent with its body (a HEAD is answered by the GET route without one).
    const rebuild = c.get('answerText');
    if (rebuild && rebuild.answer === res && c.req.method !== 'HEAD') {
      record(rebuild.text);
      return;
    }
    // The text the adapter is about to write, as the handler gave it: recorded now, with nothing
    // copied or wrapped (a HEAD is sent without the body its GET route gave).
    const sent = c.req.method === 'HEAD' ? undefined : answerText(res);
    if (sent !== undefined) {
      record(textual && sent !== null ? sent : undefined);
      return;
    }
    const outgoing = env?.outgoing;
    if (outgoing) {
      // Not res.body: on @hono/node-server's light Response, reading it builds a web stream.
      tapAnswer(outgoing, textual, record);
      return;
    }
    if (!textual || !res.body) {
      record(undefined);
      return;
    }
    // In process: the answer is read now from a clone (the caller reads the original).
    const answer = await res
      .clone()
      .text()
      .catch(() => undefined);
    record(answer);
  };
}

/** The body text the handler read, from Hono's cache of settled reads (no second read of the stream). */
function requestBodyRead(c: Context<AppEnv>): Promise<string> | undefined {
  const cache = c.req.bodyCache as { text?: Promise<string>; arrayBuffer?: Promise<ArrayBuffer> };
  if (cache.text) return cache.text;
  const bytes = cache.arrayBuffer;
  return bytes?.then((b) => new TextDecoder().decode(b));
}

/**
 * Records the request once the body the handler read is at hand (its read settled before the
 * handler answered: one microtask away). The journal keeps bytes, never the body's promise or text.
 */
function recordWhenRead(journal: RequestJournal, noted: NotedRequest, body: Promise<string> | undefined): void {
  if (!body) {
    journal.recordNoted(noted);
    return;
  }
  body.then(
    (text) => {
      noted.body = text;
      journal.recordNoted(noted);
    },
    () => journal.recordNoted(noted),
  );
}

type Chunk = string | Uint8Array;

/**
 * Calls `done` once Node's response is ended, with the text written (when `textual`; up to the
 * journal's limit and a little over, so that clipping marks it truncated). Node's write and end are
 * wrapped for this one response only.
 */
function tapAnswer(outgoing: ServerResponse, textual: boolean, done: (answer: string | undefined) => void): void {
  const chunks: Chunk[] = [];
  let size = 0;
  const keep = (chunk: unknown) => {
    if (!textual || size > JOURNAL_BODY_LIMIT || (typeof chunk !== 'string' && !(chunk instanceof Uint8Array))) return;
    chunks.push(chunk);
    size += chunk.length;
  };
  const write = outgoing.write;
  const end = outgoing.end;
  outgoing.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    keep(chunk);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  outgoing.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== 'function') keep(chunk);
    const ended = (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    done(chunks.length > 0 ? textOf(chunks) : undefined);
    return ended;
  } as ServerResponse['end'];
}

function textOf(chunks: Chunk[]): string {
  if (chunks.length === 1 && typeof chunks[0] === 'string') return chunks[0];
  return chunks
    .map((c) => (typeof c === 'string' ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength).toString('utf8')))
    .join('');
}
