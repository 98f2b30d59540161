// A change a route makes after it awaited (its body, a lookup, a participant's answer) is still
// its caller's: where a route names that, for `actioned_by` (src/sim/actor.ts).
import type { Context } from 'hono';
import { runAs } from '../sim/actor.ts';
import type { AppEnv } from './context.ts';

/**
 * Runs `change` (synchronous) as the request's client. The /v1 layer runs what a request does
 * before its first await as the client; a change after an await goes through this, or is made as
 * the scheme. A route of long work passes it on for each slice (`(slice) => asCaller(c, slice)`).
 */
export function asCaller<T>(c: Context<AppEnv>, change: () => T): T {
  return runAs(c.get('clientId'), change);
}
