// Scenarios about webhooks need somewhere for notifications to arrive: a real HTTP server the
// simulator delivers to and the steps read from.
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json: unknown;
  at: number;
}

/**
 * A real HTTP server on 127.0.0.1:0 that webhooks are delivered to. It records every request and
 * answers with the status set by the test (200 unless told otherwise).
 */
export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  /** Statuses to answer with, in order; when empty, `status` is used. */
  readonly script: number[] = [];
  status = 200;
  #server: Server | undefined;
  #waiters = new Set<() => void>();
  url = '';

  async start(): Promise<string> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const status = this.script.shift() ?? this.status;
        if (status >= 200 && status < 300) {
          this.received.push({
            method: req.method ?? '',
            path: req.url ?? '',
            headers: req.headers,
            body,
            json,
            at: Date.now(),
          });
          for (const w of this.#waiters) w();
        }
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      });
    });
    // A fixed port when a tunnel forwards CONFORMANCE_CALLBACK_URL to it (staging cannot call 127.0.0.1).
    const port = Number(process.env.CONFORMANCE_RECEIVER_PORT ?? 0);
    await new Promise<void>((resolve) => this.#server!.listen(port, '127.0.0.1', resolve));
    const addr = this.#server.address();
    if (!addr || typeof addr === 'string') throw new Error('receiver has no port');
    this.url = `http://127.0.0.1:${addr.port}`;
    return this.url;
  }

  reset(): void {
    this.received.length = 0;
    this.script.length = 0;
    this.status = 200;
  }

  /** Waits until a received request satisfies `match`, or fails after `timeoutMs`. */
  /** The first request that matches, waiting up to `timeoutMs`; `onTick` runs every 100 ms meanwhile. */
  async waitFor(
    match: (r: ReceivedRequest) => boolean,
    timeoutMs = 5000,
    onTick: () => void = () => {},
  ): Promise<ReceivedRequest> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.received.find(match);
      if (hit) return hit;
      onTick();
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching webhook within ${timeoutMs} ms; received ${this.received.length}`);
      await new Promise<void>((resolve) => {
        const done = () => {
          this.#waiters.delete(done);
          clearTimeout(t);
          resolve();
        };
        const t = setTimeout(done, Math.min(left, 100));
        this.#waiters.add(done);
      });
    }
  }

  async stop(): Promise<void> {
    if (!this.#server) return;
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server!.close(() => resolve()));
  }
}
