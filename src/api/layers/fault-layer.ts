// Injected faults (POST /v1/simulator/faults) take effect here: a client can rehearse latency, 5xx
// answers and dropped connections against the double.
import type { Context, Next } from 'hono';
import type { AppEnv } from '../context.ts';
import { errorBody } from '../wire/errors.ts';
import type { Faults } from './faults.ts';

/** The header on every injected answer: nobody mistakes an injected 503 for a bug. */
export const FAULT_HEADER = 'x-scheme-sim-fault';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Applies the caller's fault rules to its /v1 requests (never to /v1/simulator, so rules can always
 * be listed and deleted): a latency, then an error answer with Retry-After, or a dropped
 * connection. Costs one size check when no rule is set.
 */
export function faultLayer(faults: Faults) {
  return async (c: Context<AppEnv>, next: Next): Promise<Response | undefined> => {
    if (faults.size === 0 || c.req.path.startsWith('/v1/simulator/')) return next() as Promise<undefined>;
    const rule = faults.match(c.get('organisationId'), c.req.method, c.req.path);
    if (!rule) return next() as Promise<undefined>;
    const a = rule.attributes;
    if (a.latency_ms) await sleep(a.latency_ms);
    if (a.drop) {
      // Served by Node (the real server): the socket is closed with no answer. In process (msw,
      // app.request) there is no socket; the answer says so rather than pretend.
      const socket = (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming?.socket;
      if (socket) {
        socket.destroy();
        return new Response(null, { status: 499 });
      }
      return c.json(errorBody(`injected fault ${rule.id}: connection dropped (in process: answered 503)`), 503, {
        [FAULT_HEADER]: `${rule.id}; drop`,
      });
    }
    if (a.status) {
      const headers: Record<string, string> = { [FAULT_HEADER]: rule.id };
      if (a.retry_after !== undefined) headers['Retry-After'] = String(a.retry_after);
      return c.json(errorBody(`injected fault ${rule.id}: ${a.status}`), a.status, headers);
    }
    c.header(FAULT_HEADER, `${rule.id}; latency ${a.latency_ms ?? 0} ms`);
    return next() as Promise<undefined>;
  };
}
