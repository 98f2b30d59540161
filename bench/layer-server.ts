// A server for bench/layers.ts: a Hono app served as the simulator serves its app (src/node/server.ts),
// with a create-shaped echo handler (read the JSON body, answer its data, 201) behind one of the
// simulator's per-request layers, or none, or the simulator's whole layer stack.
// usage: node --import tsx bench/layer-server.ts LAYER   (prints `token TOKEN`, then `listening on URL`)
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { distIsCurrent } from '../bin/dist-current.mjs';
import type { AppEnv } from '../src/api/context.ts';

/**
 * The simulator's layers as the bin runs them: the built dist/ when it is current, else the
 * sources through tsx, which names every closure a layer makes per request at run time (a cost the
 * built code does not pay: the request journal measured 63 µs a request alone through tsx, about
 * 20 from dist/; bench/RESULTS.md, 2026-11-27). The layers bench says which it measured.
 */
const ROOT = new URL('..', import.meta.url).pathname;
const BUILT = distIsCurrent(ROOT);
const from = <T>(path: string): Promise<T> => import(BUILT ? `../dist/${path}.js` : `../src/${path}.ts`) as Promise<T>;
const { readJson } = await from<typeof import('../src/api/body/body.ts')>('api/body/body');
const { corsLayer } = await from<typeof import('../src/api/layers/cors.ts')>('api/layers/cors');
const { Faults } = await from<typeof import('../src/api/layers/faults.ts')>('api/layers/faults');
const { journalLayer } = await from<typeof import('../src/api/journal/journal-layer.ts')>('api/journal/journal-layer');
const { RequestJournal } =
  await from<typeof import('../src/api/journal/request-journal.ts')>('api/journal/request-journal');
const { v1Layer } = await from<typeof import('../src/api/layers/v1-layer.ts')>('api/layers/v1-layer');
const { createRuntime } = await from<typeof import('../src/runtime.ts')>('runtime');
const { runAs } = await from<typeof import('../src/sim/actor.ts')>('sim/actor');

export const LAYERS = ['none', 'journal', 'cors', 'json-reader', 'actor', 'v1', 'app'] as const;
export type Layer = (typeof LAYERS)[number];
export const ECHO_PATH = '/v1/bench/echo';

const layer = process.argv[2] as Layer;
if (!LAYERS.includes(layer)) throw new Error(`layer must be one of ${LAYERS.join(', ')}`);

const runtime = await createRuntime({ memory: true, scheduledReports: false });
const token = runtime.deps.tokens.issue('bench', runtime.sim.organisations.defaultOrganisation.id).access_token;
const echo = async (c: Context<AppEnv>) => {
  const body = (layer === 'json-reader' ? await readJson(c) : await c.req.json()) as { data?: unknown };
  return c.json({ data: body.data }, 201);
};

let app: Hono<AppEnv>;
if (layer === 'app') {
  // The simulator's own app: every layer it puts on a /v1 request, and the echo at the end.
  app = runtime.app;
  app.post(ECHO_PATH, echo);
} else {
  app = new Hono<AppEnv>();
  const layers: Partial<Record<Layer, MiddlewareHandler<AppEnv>>> = {
    journal: journalLayer(
      new RequestJournal(),
      () => new Date(),
      () => runtime.sim.clock.now(),
    ),
    cors: corsLayer({ kind: 'localhost' }) as MiddlewareHandler<AppEnv>,
    actor: (_c, next) => runAs('bench', next),
    v1: v1Layer(runtime.deps, new Faults(), runtime.sim.longWork, undefined),
  };
  const one = layers[layer];
  if (one) app.use('*', one);
  app.post(ECHO_PATH, echo);
}

const listener = getRequestListener(app.fetch);
const server = createServer((req, res) => void listener(req, res));
console.log(`token ${token}`); // before the listening line, which is what the bench waits for
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}`);
});
