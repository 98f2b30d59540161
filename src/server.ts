import { serve, type ServerType } from '@hono/node-server';
import type { Runtime } from './runtime.ts';

export interface RunningServer {
  url: string;
  port: number;
  server: ServerType;
  close(): Promise<void>;
}

/** Serves a runtime's app on a port (0 picks a free one) and starts its background workers. */
export function listen(runtime: Runtime, port = 8080, hostname = '127.0.0.1'): Promise<RunningServer> {
  return new Promise((resolvePromise, reject) => {
    const server = serve({ fetch: runtime.app.fetch, port, hostname }, (info) => {
      const host = hostname.includes(':') ? `[${hostname}]` : hostname;
      // Now the address is known: a subscription may not call back the simulator itself.
      runtime.sim.subscriptions.addSelfAddress(`http://${host}:${info.port}`);
      runtime.start();
      resolvePromise({
        url: `http://${host}:${info.port}`,
        port: info.port,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Keep-alive sockets would hold close() open; end them.
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }).then(() => runtime.close()),
      });
    });
    server.once('error', reject);
  });
}
