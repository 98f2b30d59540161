// So a write never lands halfway through an advance or a reset: the layer that makes it wait while
// reads go on (decision 014).
import type { MiddlewareHandler } from 'hono';
import type { LongWork } from '../../sim/long-work.ts';
import type { AppEnv } from '../context.ts';

/** The routes that run long work themselves (they wait for, or refuse, the long work running). */
const LONG_WORK_ROUTES = new Set(['/v1/simulator/clock/advance', '/v1/simulator/reset']);

/**
 * While long work runs (an advance, a reset: src/sim/long-work.ts), a request that changes state
 * waits for it to finish before its handler runs; reads (GET, HEAD, OPTIONS) go straight on and
 * see the state of the last slice boundary. The wait ends however the long work ends.
 */
export function longWorkGate(longWork: LongWork): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (
      longWork.running !== undefined &&
      method !== 'GET' &&
      method !== 'HEAD' &&
      method !== 'OPTIONS' &&
      !LONG_WORK_ROUTES.has(c.req.path)
    )
      await longWork.idle();
    await next();
  };
}
