// What a caller may ask before it holds a token: whether the simulator is up (and what it runs on),
// and the OpenAPI document.
import type { AppDeps } from '../context.ts';
import { openApiDocument } from '../openapi.ts';
import { defineRoutes, type Operation, type RouteGroup } from '../route-declaration.ts';
import { wireRules } from '../wire/wire-rules.ts';

/**
 * GET /health and GET /v1/openapi.json, both without a token (and, under the fake account API's
 * wire, its GET /v1/health). `store` tells a harness whether a
 * reset would wipe a data file (the sim target asks before it resets). /health is answered from
 * memory: it never waits for a write or for long work (an advance in slices).
 */
export function serviceInfoRoutes(deps: AppDeps, operations: () => readonly Operation[]): RouteGroup {
  const { sim } = deps;
  const r = defineRoutes('', 'Simulator');
  r.get('/health', { summary: 'Liveness and the scheme clock, without a token', open: true }, (c) =>
    c.json({
      status: 'ok',
      now: sim.clock.now().toISOString(),
      clock: sim.clock.mode,
      store: sim.store.location === 'memory' ? 'memory' : 'persistent',
      auth: deps.mode.auth,
    }),
  );
  // The fake account API's own health check (--auth off); Form3's API has none at this path.
  const health = wireRules(deps.mode.wire).health;
  if (health)
    r.get('/v1/health', { summary: "The fake account API's health check, without a token", open: true }, (c) =>
      c.json(health),
    );
  let openApi: object | undefined; // generated on first request, then served as it is
  r.get('/v1/openapi.json', { summary: 'This OpenAPI document', open: true }, (c) =>
    c.json((openApi ??= openApiDocument(operations(), deps.version))),
  );
  return r;
}
