// Test support (not shipped behaviour): a real HTTP server on 127.0.0.1 that plays a webhook
// subscriber which fails, goes down, answers 410 or hangs, as a test scripts it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The status answered; absent while (or because) the request hangs. */
  status?: number;
}

/** What to do with one request: answer with a status, or hang (never answer). */
export type Reply = number | 'hang';

export class TestReceiver {
  /** Every request that reached the server, whatever it was answered. */
  readonly requests: Received[] = [];
  /** Replies for the next requests, in order; afterwards `otherwise`. */
  readonly script: Reply[] = [];
  otherwise: Reply = 200;
  port = 0;
  #server: Server | undefined;
  readonly #hanging = new Set<ServerResponse>();

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Requests answered 2xx. */
  get delivered(): Received[] {
    return this.requests.filter((r) => r.status !== undefined && r.status < 300);
  }

  /** Listens (on `port` when set, so a restarted receiver keeps its URL). */
  async up(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const reply = this.script.shift() ?? this.otherwise;
        const rec: Received = {
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.requests.push(rec);
        if (reply === 'hang') {
          this.#hanging.add(res);
          return;
        }
        rec.status = reply;
        res.writeHead(reply, { 'content-type': 'text/plain' }).end(reply < 300 ? 'ok' : `status ${reply}`);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const addr = server.address();
    if (!addr || typeof addr === 'string') throw new Error('receiver has no port');
    this.port = addr.port;
    this.#server = server;
  }

  /** Stops listening: further deliveries meet a refused connection. */
  async down(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    for (const res of this.#hanging) res.destroy();
    this.#hanging.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Polls `check` until it holds or `timeoutMs` passes (then throws with `what`). */
  static async until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
