// Passing a request a node does not serve to the node that does (docs/shared-double.md): the
// method, path, headers and body as they came, and the answer streamed back as it comes.
import { Agent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { errorBody } from '../api/wire/errors.ts';

/** Set on a request a node passes on: the receiver, if it does not serve it either, does not pass it again. */
export const FORWARDED_BY = 'x-scheme-sim-forwarded-by';
/** Set on a 503 of a node that did not serve the request at all, so passing it elsewhere is safe. */
export const NOT_SERVED = 'x-scheme-sim-not-served';

/** Headers of one connection, not of the request (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

/** Connections to the other nodes are kept open between requests. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * - `answered`: the owner's answer went to the client;
 * - `retry`: the request did not reach a node that served it (refused connection, or that node's
 *   "not served" 503): passing it again is safe;
 * - `failed`: the owner may have seen it and no answer came; the client was told 503.
 */
export type ForwardOutcome = 'answered' | 'retry' | 'failed';

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Sends the buffered request to the node at `target` once, and streams its answer to `res`. */
export function forwardOnce(
  target: string,
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
  nodeId: string,
): Promise<ForwardOutcome> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  headers[FORWARDED_BY] = nodeId;
  if (body.length > 0 || req.headers['content-length'] !== undefined) headers['content-length'] = String(body.length);
  const url = new URL(req.url ?? '/', target);
  return new Promise((resolve) => {
    const out = httpRequest(url, { method: req.method, headers, agent }, (answer) => {
      if (answer.statusCode === 503 && answer.headers[NOT_SERVED]) {
        answer.resume();
        return resolve('retry');
      }
      const back: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers))
        if (value !== undefined && !HOP_BY_HOP.has(name)) back[name] = value;
      res.writeHead(answer.statusCode ?? 502, back);
      answer.pipe(res);
      answer.on('end', () => resolve('answered'));
      answer.on('error', () => {
        res.destroy();
        resolve('answered');
      });
      // The client went away (an event stream closed): stop reading the owner's answer.
      res.on('close', () => {
        if (!answer.complete) answer.destroy();
        resolve('answered');
      });
    });
    out.on('error', (err: NodeJS.ErrnoException) => {
      const code = err.code ?? '';
      // Refused: nothing listens there now, so the request was never seen. A reused idle
      // connection the owner had closed is the same for a request that changes nothing.
      const unseen =
        code === 'ECONNREFUSED' ||
        (code === 'ECONNRESET' && out.reusedSocket && (req.method === 'GET' || req.method === 'HEAD'));
      if (unseen) return resolve('retry');
      if (!res.headersSent)
        notServed(res, `the node serving this request went away before it answered (${code})`, false);
      else res.destroy();
      resolve('failed');
    });
    out.end(body);
  });
}

/**
 * 503 in Form3's error shape with Retry-After. `unseen` marks a request no node acted on (another
 * node may safely pass it on); a request that may have been acted on is not marked.
 */
export function notServed(res: ServerResponse, message: string, unseen = true): void {
  const text = JSON.stringify(errorBody(message));
  res.writeHead(503, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'retry-after': '1',
    ...(unseen ? { [NOT_SERVED]: '1' } : {}),
  });
  res.end(text);
}
