// A sandbox is a whole world, not a filter on the default one: the layer that hands its requests to
// its own app when the simulator is used in process (decision 027).
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';
import { SANDBOX_PATH_PREFIX, type SandboxDirectory } from '../sandbox-directory.ts';
import { errorBody } from '../wire/errors.ts';
import { requestHeader } from '../wire/request-header.ts';

/**
 * The default world's first layer: a request for a sandbox (by its path prefix or its credentials)
 * is answered by that sandbox's app, as a whole request, so its journal, faults and layers are the
 * sandbox's own. A prefix is taken off the path first. The Node adapter routes the same way
 * before Hono (src/node/server.ts); this layer serves in-process use (app.request, msw).
 */
export function sandboxDispatch(sandboxes: SandboxDirectory): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // The header as Node parsed it, as the Node listener routes by it (src/node/server.ts).
    const target = sandboxes.route(c.req.path, requestHeader(c, 'authorization'));
    if (!target) return next();
    if ('refused' in target) {
      const headers: Record<string, string> =
        target.refused === 401 ? { 'WWW-Authenticate': 'Bearer realm="scheme-sim", error="invalid_token"' } : {};
      return c.json(errorBody(target.message), target.refused, headers);
    }
    if (target.path === undefined) return target.entry.app.fetch(c.req.raw, c.env);
    const url = new URL(c.req.raw.url);
    const prefix = url.pathname.slice(0, url.pathname.length - target.path.length);
    url.pathname = target.path;
    // The prefix goes along: a request signed as Form3's SDK signs them was signed over it.
    const env = { ...(c.env as object), [SANDBOX_PATH_PREFIX]: prefix };
    return target.entry.app.fetch(new Request(url, c.req.raw), env);
  };
}
