import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from '../body-limit.ts';
import type { AppDeps } from '../context.ts';
import { ApiError } from '../errors.ts';
import { nameVerificationExchange, PARTICIPANTS_PREFIX } from './name-verification-exchange.ts';

/**
 * Paths the Node adapter answers as they are: /v1/participants and below, made only of characters
 * that need no decoding or normalising (no %, no dot segments, no backslash). Anything else goes to
 * Hono, whose adapter of the same exchange decodes and normalises the URL first.
 */
const PLAIN_PATH = /^\/v1\/participants(?:\/[A-Za-z0-9_~!$&'()*+,;=:@-]+(?:\.[A-Za-z0-9_~!$&'()*+,;=:@-]+)*)*\/?$/;
const PLAIN_HOST = /^[a-z0-9._-]+(?::\d{1,5})?$/;

/**
 * The Node adapter of name verification for the real server: answers a request under
 * /v1/participants straight from Node's request and response objects, with no web Request or
 * Response built (the hot path of name verification; DESIGN.md's budget is set against a bare Hono
 * handler). Returns false, touching nothing, for any request it leaves to Hono.
 */
export function nameVerificationListener(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const url = req.url ?? '';
    if (!url.startsWith(PARTICIPANTS_PREFIX)) return false;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const host = req.headers.host;
    if (!PLAIN_PATH.test(path) || host === undefined || !PLAIN_HOST.test(host)) return false;
    const headers = req.headers;
    const request = {
      method: req.method ?? 'GET',
      path,
      header: (name: string) => {
        const value = headers[name];
        return typeof value === 'string' || value === undefined ? value : value.join(', ');
      },
    };
    nameVerificationExchange(deps, request, () => readBody(req)).then(
      (answer) => {
        if (answer.status === 413) res.shouldKeepAlive = false; // the rest of the body is not read
        res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
        res.end(answer.body);
      },
      (err: unknown) => {
        // The exchange answers its own errors; this is only a broken socket or a bug.
        console.error('scheme-sim: name verification failed outside the exchange', err);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"Code":"500 InternalServerError","Message":"internal error"}');
      },
    );
    return true;
  };
}

/** The body as UTF-8 text; ApiError 413 once more than MAX_BODY_BYTES arrived (the rest is not read). */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData);
        req.pause();
        reject(new ApiError(413, `request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB)`));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    // A client that goes away mid-body: no 'end' comes. A 400, not a server error (nothing to log);
    // no-ops once the body was read.
    const cutOff = () => reject(new ApiError(400, 'the request body was cut off before its end'));
    req.once('error', cutOff);
    req.once('close', cutOff);
  });
}
