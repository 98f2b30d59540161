// The real HTTP server: a runtime served on a port, with the name-verification fast path and sandbox
// routing ahead of the Hono app.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { getRequestListener, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../api/context.ts';
import type { Runtime } from '../runtime.ts';
import { nameVerificationListener } from './name-verification-listener.ts';

export interface RunningServer {
  url: string;
  port: number;
  server: ServerType;
  close(): Promise<void>;
}

/** One world's listener: name verification through its Node adapter, the rest through its Hono app. */
export function worldListener(
  deps: AppDeps,
  app: Hono<AppEnv>,
  hostname?: string,
): (req: IncomingMessage, res: ServerResponse) => void {
  const nameVerification = nameVerificationListener(deps);
  const answer = getRequestListener(app.fetch, { hostname });
  return (req, res) => {
    if (!nameVerification(req, res)) void answer(req, res);
  };
}

/**
 * The server's request listener: name verification through its Node adapter (its hot path, with no
 * web Request/Response built), everything else, and what that adapter leaves, through the Hono app.
 */
export function requestListener(
  runtime: Runtime,
  hostname?: string,
): (req: IncomingMessage, res: ServerResponse) => void {
  const listenerOf = (deps: AppDeps, app: Hono<AppEnv>) => worldListener(deps, app, hostname);
  const own = listenerOf(runtime.deps, runtime.app);
  // A sandbox's requests go to its own listener (made on its first request, dropped with it), as
  // they are: the name-verification fast path serves sandboxes too. The default world's app answers
  // a request for a sandbox that does not exist (sandbox-dispatch.ts).
  const sandboxListeners = new WeakMap<object, ReturnType<typeof listenerOf>>();
  const { requests } = runtime;
  const ended = () => requests.end();
  return (req, res) => {
    // Counted until the answer has gone or the connection closed: background delivery gives way meanwhile.
    requests.begin();
    res.on('close', ended); // not once(): a response closes once, and once() wraps the listener per request
    const target = runtime.sandboxes.routeWorld(req.url ?? '/', req.headers.authorization);
    // A refusal, and a request under a sandbox's path prefix, go through the default world's app,
    // whose first layer answers it or hands the sandbox's app the request with its prefix.
    if (!target || 'refused' in target || target.path !== undefined) return own(req, res);
    let listener = sandboxListeners.get(target.world);
    if (!listener) sandboxListeners.set(target.world, (listener = listenerOf(target.world.deps, target.world.app)));
    listener(req, res);
  };
}

/**
 * Serves a runtime's app on a port (0 picks a free one) and starts its background workers. The
 * runtime is warmed first (validators compiled, signing keys ready), so no early request stalls.
 */
export async function listen(runtime: Runtime, port = 8080, hostname = '127.0.0.1'): Promise<RunningServer> {
  await runtime.warm();
  return new Promise((resolvePromise, reject) => {
    const server = createServer(requestListener(runtime, hostname));
    server.listen(port, hostname, () => {
      const info = { port: (server.address() as { port: number }).port };
      const host = hostname.includes(':') ? `[${hostname}]` : hostname;
      // Now the address is known: a subscription may not call back the simulator itself.
      runtime.sandboxes.addSelfAddress(`http://${host}:${info.port}`);
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
