import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';
import {
  clip,
  JOURNAL_BODY_LIMIT,
  type JournalEntry,
  maskBody,
  maskHeaders,
  type RequestJournal,
  TOOL_HEADER,
} from './request-journal.ts';

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

/** What the request path notes of a request: references only; the entry is made from them when read. */
interface Noted {
  at: Date;
  started: number;
  method: string;
  url: string;
  headers: Headers | IncomingMessage['headers'];
  status: number;
  clientId: string | undefined;
  organisationId: string | undefined;
  /** The request body as the handler read it (Hono's settled body cache), if it read one. */
  body: Promise<string> | undefined;
}

/**
 * Records every request and its answer in the journal (the outermost layer, so refusals by the
 * auth and fault layers are seen too). A request pays only for noting references: the entry
 * (masking, the URL split, the request body's text) is made when the journal is read.
 *
 * The answer's text: served by Node (the real server), the bytes handed to Node's response as it
 * writes them, and the entry recorded then, so the request log sees an error's error_code. No web
 * Response is cloned or turned into a stream, which would push @hono/node-server off its fast
 * path of writing a string answer in one call. In process (app.request(), msw) there is no Node
 * response, and a textual answer is read from a clone, as nothing else reads it there.
 */
export function journalLayer(journal: RequestJournal, now: () => Date): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (journal.size === 0 && !journal.listened) return next();
    if (c.req.method === 'GET' && JOURNAL_READERS.has(c.req.path)) return next();
    const started = performance.now();
    const at = now();
    await next();
    const env = c.env as NodeBindings | undefined;
    const res = c.res;
    const noted: Noted = {
      at,
      started,
      method: c.req.method,
      url: env?.incoming?.url ?? c.req.url,
      headers: env?.incoming?.headers ?? c.req.raw.headers,
      status: res.status,
      clientId: c.get('clientId'),
      organisationId: c.get('organisationId'),
      body: requestBodyRead(c),
    };
    const textual = TEXTUAL.test(res.headers.get('content-type') ?? '');
    // Only while the answer is still the one that can be made again (not replaced after it, e.g.
    // by an error), and sent with its body (a HEAD is answered by the GET route without one).
    const rebuild = c.get('answerText');
    if (rebuild && rebuild.answer === res && c.req.method !== 'HEAD') {
      record(journal, noted, rebuild.text);
      return;
    }
    const outgoing = env?.outgoing;
    if (outgoing) {
      // Not res.body: on @hono/node-server's light Response, reading it builds a web stream.
      tapAnswer(outgoing, textual, (answer) => record(journal, noted, answer));
      return;
    }
    if (!textual || !res.body) {
      record(journal, noted, undefined);
      return;
    }
    // In process: the answer is read now from a clone (the caller reads the original).
    const answer = await res
      .clone()
      .text()
      .catch(() => undefined);
    record(journal, noted, answer);
  };
}

/** The body text the handler read, from Hono's cache of settled reads (no second read of the stream). */
function requestBodyRead(c: Context<AppEnv>): Promise<string> | undefined {
  const cache = c.req.bodyCache as { text?: Promise<string>; arrayBuffer?: Promise<ArrayBuffer> };
  if (cache.text) return cache.text;
  const bytes = cache.arrayBuffer;
  return bytes?.then((b) => new TextDecoder().decode(b));
}

/** Records the entry (made when first read, or at once for a listener such as the request log). */
function record(journal: RequestJournal, noted: Noted, answer: string | (() => string) | undefined): void {
  const duration = Math.round((performance.now() - noted.started) * 1000) / 1000;
  const kept = bounded(answer);
  // The entry's closure lives as long as its slot in the ring: it must not hold the body's promise,
  // whose text may be up to the 1 MiB body limit (a full ring once held a gigabyte; issue 29).
  const body = noted.body;
  noted.body = undefined;
  if (!body) {
    journal.record(() => entryOf(noted, duration, undefined, kept));
    return;
  }
  // The handler's read settled before it answered: its text is one microtask away.
  body.then(
    (text) => {
      const bodyKept = bounded(text, maskBody);
      journal.record(() => entryOf(noted, duration, bodyKept, kept));
    },
    () => journal.record(() => entryOf(noted, duration, undefined, kept)),
  );
}

/** A body as an entry shows it: masked (a request's) and clipped. */
type Shown = { text: string; truncated: boolean };

/**
 * A text as the entry will show it: kept as it is while short (masked and clipped only when the
 * journal is read), or clipped now and copied when long, as a slice of a long string may keep the
 * whole of it alive (V8's sliced strings point into their parent).
 */
function bounded<T extends string | (() => string) | undefined>(
  text: T,
  mask: (text: string) => string = (t) => t,
): T | Shown {
  if (typeof text !== 'string' || text.length <= JOURNAL_BODY_LIMIT) return text;
  const shown = clip(mask(text));
  return { text: structuredClone(shown.text), truncated: shown.truncated };
}

/** The text an entry shows of a body noted by `bounded` (made again first, if it was kept as how to). */
function shown(
  text: string | (() => string) | Shown | undefined,
  mask: (text: string) => string = (t) => t,
): Shown | undefined {
  if (text === undefined) return undefined;
  if (typeof text === 'function') return clip(mask(text()));
  return typeof text === 'string' ? clip(mask(text)) : text;
}

function entryOf(
  n: Noted,
  duration: number,
  requestBody: string | Shown | undefined,
  answer: string | (() => string) | Shown | undefined,
): Omit<JournalEntry, 'id'> {
  const url = new URL(n.url, 'http://journal.invalid');
  const body = requestBody ? shown(requestBody, maskBody) : undefined;
  const tool = headerOf(n.headers, TOOL_HEADER)?.slice(0, 40);
  const kept = shown(answer);
  const code = n.status >= 400 && kept ? /"error_code"\s*:\s*"([^"]+)"/.exec(kept.text)?.[1] : undefined;
  return {
    time: n.at.toISOString(),
    method: n.method,
    path: url.pathname,
    query: url.search.replace(/^\?/, ''),
    headers: maskHeaders(n.headers),
    ...(body ? { body: body.text, ...(body.truncated ? { body_truncated: true } : {}) } : {}),
    status: n.status,
    ...(code ? { error_code: code } : {}),
    ...(kept ? { response_body: kept.text, ...(kept.truncated ? { response_truncated: true as const } : {}) } : {}),
    duration_ms: duration,
    ...(n.clientId ? { client_id: n.clientId } : {}),
    ...(n.organisationId ? { organisation_id: n.organisationId } : {}),
    // A tool's read (its polling) is marked own: hidden from the journal unless asked for.
    ...(tool ? { tool, ...(n.method === 'GET' || n.method === 'HEAD' ? { own: true as const } : {}) } : {}),
  };
}

/** One header of a request as Node or the web gives them. */
function headerOf(headers: Noted['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
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
