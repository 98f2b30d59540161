// The bare Hono baseline the process benchmarks divide by (bench/processes.ts): a plain Hono app on
// @hono/node-server, run by node itself (no tsx), as the built simulator is run. It answers what
// the simulator answers on the measured routes, doing the least work a Hono handler can:
//   GET  /health                                  a small JSON body
//   POST /v1/organisation/accounts                reads the JSON body, answers its data (201)
//   GET  /v1/organisation/accounts                serialises the same accounts page (given)
//   POST /v1/participants/{id}/…/name-verification reads the body, answers the given answer
//                                                 (with --sign: signed afresh each time, see below)
// usage: node bench/bare-server.mjs [answers.json] [--sign]
//        (answers: { list?: object, cop?: {body, headers} })
import { constants, createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
const answers = file ? JSON.parse(readFileSync(file, 'utf8')) : {};

/**
 * --sign: the least a name-verification answer signed afresh costs. Each answer gets a new
 * RSASSA-PSS signature (SHA-256, salt 32, as PS256) by node:crypto alone, with the participant's
 * own key (fixtures/participants.json), over the given signature's protected header and the body:
 * no JWS library, no WebCrypto. The header sent is as long as the simulator's.
 */
const signing = process.argv.includes('--sign');
const participants = signing ? JSON.parse(readFileSync(new URL('../fixtures/participants.json', import.meta.url))) : [];
const pss = signing && {
  key: createPrivateKey(participants[0].signing_key.private_key),
  padding: constants.RSA_PKCS1_PSS_PADDING,
  saltLength: 32,
};
const signedAfresh = (protectedHeader, body) =>
  new Promise((resolve, reject) =>
    sign('sha256', Buffer.from(`${protectedHeader}.${Buffer.from(body).toString('base64url')}`), pss, (err, sig) =>
      err ? reject(err) : resolve(`${protectedHeader}..${sig.toString('base64url')}`),
    ),
  );
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
  const headers = { ...cop.headers, 'content-type': 'application/json' };
  if (signing)
    headers['x-jws-signature'] = await signedAfresh(headers['x-jws-signature']?.split('.')[0] ?? '', cop.body);
  return c.body(cop.body, 200, headers);
});
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
