// Test-only: an ordinary load balancer in front of the nodes of a shared double, for clients that
// take one base URL (curl in the README's tour, the conformance harness): each request goes to the
// next node in turn, with no stickiness, and is streamed both ways as it is.
import { createServer, request } from 'node:http';

export interface RoundRobinProxy {
  url: string;
  /** How many requests each node's URL was sent. */
  sent: Map<string, number>;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 and passes each request to the next of `urls()`. */
export function startRoundRobinProxy(urls: () => string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const sent = new Map<string, number>();
  const server = createServer((req, res) => {
    const list = urls();
    const target = new URL(list[next++ % list.length]!);
    sent.set(target.origin, (sent.get(target.origin) ?? 0) + 1);
    // The Host header is the proxy's, as behind a balancer: the double's links name the address the client used.
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`round-robin proxy: ${target.origin}: ${err.message}`);
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        sent,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    });
  });
}
