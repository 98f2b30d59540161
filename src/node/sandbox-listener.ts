// A node of a shared double serves sandboxes without the default world (that may live on another
// node): the listener that answers a sandbox's requests, by its credentials or under its path
// prefix, as the default world's first layer does on a single simulator (sandbox-dispatch.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { SANDBOX_PATH_PREFIX } from '../api/sandbox-directory.ts';
import { errorBody } from '../api/wire/errors.ts';
import type { Sandboxes } from '../sandboxes.ts';
import type { World } from '../world.ts';
import { worldListener } from './server.ts';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

const PREFIX = '/sandboxes/';

export function sandboxListener(sandboxes: Sandboxes, hostname: string): Listener {
  const byCredentials = new WeakMap<World, Listener>();
  const byPrefix = new WeakMap<World, Listener>();
  return (req, res) => {
    const target = sandboxes.routeWorld(req.url ?? '/', req.headers.authorization);
    if (!target || 'refused' in target) {
      const status = target && 'refused' in target ? target.refused : 404;
      const message = target && 'refused' in target ? target.message : 'this sandbox does not exist here';
      const text = JSON.stringify(errorBody(message));
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        ...(status === 401 ? { 'www-authenticate': 'Bearer realm="scheme-sim", error="invalid_token"' } : {}),
      });
      return res.end(text);
    }
    const world = target.world;
    if (target.path === undefined) {
      let listener = byCredentials.get(world);
      if (!listener) byCredentials.set(world, (listener = worldListener(world.deps, world.app, hostname)));
      return listener(req, res);
    }
    let listener = byPrefix.get(world);
    if (!listener) {
      // The prefix goes along in the env: a request signed as Form3's SDK signs them was signed over it.
      listener = getRequestListener(
        (request, env) => {
          const url = new URL(request.url);
          const end = url.pathname.indexOf('/', PREFIX.length);
          const prefix = end < 0 ? url.pathname : url.pathname.slice(0, end);
          url.pathname = url.pathname.slice(prefix.length) || '/';
          return world.app.fetch(new Request(url, request), { ...(env as object), [SANDBOX_PATH_PREFIX]: prefix });
        },
        { hostname },
      );
      byPrefix.set(world, listener);
    }
    listener(req, res);
  };
}
