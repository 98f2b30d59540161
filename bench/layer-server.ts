// A server for bench/layers.ts: a Hono app served as the simulator serves its app (src/node/server.ts),
// with a create-shaped echo handler (read the JSON body, answer its data, 201) behind one of the
// simulator's per-request layers, or none, or the simulator's whole layer stack.
// usage: node --import tsx bench/layer-server.ts LAYER   (prints `token TOKEN`, then `listening on URL`)
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bearerAuth } from '../src/api/auth/middleware.ts';
import { readJson } from '../src/api/body.ts';
import type { AppEnv } from '../src/api/context.ts';
import { corsLayer } from '../src/api/cors.ts';
import { faultLayer } from '../src/api/fault-layer.ts';
import { Faults } from '../src/api/faults.ts';
import { journalLayer } from '../src/api/journal-layer.ts';
import { longWorkGate } from '../src/api/long-work-gate.ts';
import { RequestJournal } from '../src/api/request-journal.ts';
import { createRuntime } from '../src/runtime.ts';
import { runAs } from '../src/sim/actor.ts';

export const LAYERS = [
  'none',
  'journal',
  'cors',
  'json-reader',
  'auth',
  'actor',
  'faults',
  'long-work',
  'app',
] as const;
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
    journal: journalLayer(new RequestJournal(), () => new Date()),
    cors: corsLayer({ kind: 'localhost' }) as MiddlewareHandler<AppEnv>,
    auth: bearerAuth(runtime.deps),
    actor: (_c, next) => runAs('bench', next),
    faults: faultLayer(new Faults()) as MiddlewareHandler<AppEnv>,
    'long-work': longWorkGate(runtime.sim.longWork),
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
