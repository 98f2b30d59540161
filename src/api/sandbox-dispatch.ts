import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';
import { errorBody } from './errors.ts';
import type { SandboxDirectory } from './sandbox-directory.ts';

/**
 * The default world's first layer: a request for a sandbox (by its path prefix or its credentials)
 * is answered by that sandbox's app, as a whole request, so its journal, faults and layers are the
 * sandbox's own. A prefix is taken off the path first. The Node adapter routes the same way
 * before Hono (src/node/server.ts); this layer serves in-process use (app.request, msw).
 */
export function sandboxDispatch(sandboxes: SandboxDirectory): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const target = sandboxes.route(c.req.path, c.req.header('authorization'));
    if (!target) return next();
    if ('refused' in target) {
      const headers: Record<string, string> =
        target.refused === 401 ? { 'WWW-Authenticate': 'Bearer realm="scheme-sim", error="invalid_token"' } : {};
      return c.json(errorBody(target.message), target.refused, headers);
    }
    let request = c.req.raw;
    if (target.path !== undefined) {
      const url = new URL(request.url);
      url.pathname = target.path;
      request = new Request(url, request);
    }
    return target.entry.app.fetch(request, c.env);
  };
}
