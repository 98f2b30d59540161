// What a caller may do with sandboxes (every one, its own, or create one without credentials), read
// by the sandbox routes themselves since they answer before the shared credentials layer.
import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../context.ts';
import { DEFAULT_SANDBOX, pathPrefixOf } from '../sandbox-directory.ts';
import { requestHeader } from '../wire/request-header.ts';
import { verifyBearer } from './middleware.ts';
import { isSignatureAuthorization, requestSignatures } from './request-signatures.ts';

/** Who asks, as far as sandboxes care: everyone under --auth off, else the caller's credentials. */
export interface Asker {
  /** May act on every sandbox: an admin of the default sandbox, or anyone under --auth off. */
  operator: boolean;
  /** The caller's own sandbox (a sandbox's client), when it is not the default. */
  own?: string;
  admin: boolean;
  anonymous: boolean;
}

/**
 * These routes answer before the shared credentials layer: with `--sandboxes open` a CI job that
 * holds no secret creates a sandbox, and gets its credentials in the answer.
 */
export async function askerOf(c: Context<AppEnv>, deps: AppDeps): Promise<Asker> {
  if (!deps.mode.credentials) return { operator: true, admin: true, anonymous: false };
  const header = requestHeader(c, 'authorization');
  if (header === undefined) return { operator: false, admin: false, anonymous: true };
  const url = new URL(c.req.url);
  const caller = isSignatureAuthorization(header)
    ? requestSignatures(deps).callerOf(header, {
        method: c.req.method,
        target: `${pathPrefixOf(c.env)}${url.pathname}${url.search}`,
        header: (name) => requestHeader(c, name),
        body: c.req.method === 'GET' || c.req.method === 'DELETE' ? '' : await c.req.text(),
      })
    : verifyBearer(header, deps);
  const admin = deps.clients.roleOf(caller.clientId) === 'admin';
  const world = deps.worldId ?? DEFAULT_SANDBOX;
  return world === DEFAULT_SANDBOX
    ? { operator: admin, admin, anonymous: false }
    : { operator: false, own: world, admin, anonymous: false };
}
