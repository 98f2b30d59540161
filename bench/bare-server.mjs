// The bare Hono baseline the process benchmarks divide by (bench/processes.ts): a plain Hono app on
// @hono/node-server, run by node itself (no tsx), as the built simulator is run. It answers what
// the simulator answers on the measured routes, doing the least work a Hono handler can:
//   GET  /health                                  a small JSON body
//   POST /v1/organisation/accounts                reads the JSON body, answers its data (201)
//   GET  /v1/organisation/accounts                serialises the same accounts page (given)
//   POST /v1/participants/{id}/…/name-verification reads the body, answers the given answer
// usage: node bench/bare-server.mjs [answers.json]   (answers: { list?: object, cop?: {body, headers} })
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const answers = process.argv[2] ? JSON.parse(readFileSync(process.argv[2], 'utf8')) : {};
const app = new Hono();
app.get('/health', (c) => c.json({ status: 'ok' }));
app.post('/v1/organisation/accounts', async (c) => {
  const body = await c.req.json();
  return c.json({ data: body.data }, 201);
});
app.get('/v1/organisation/accounts', (c) => c.json(answers.list ?? { data: [] }));
app.post('/v1/participants/:id/open-banking/v3.1/accounts/name-verification', async (c) => {
  await c.req.text();
  const cop = answers.cop ?? { body: '{}', headers: {} };
  return c.body(cop.body, 200, { ...cop.headers, 'content-type': 'application/json' });
});
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
