import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Exchange, maskToken } from './exchange-record.ts';
import { replayExchanges, replayTarget } from './replay-engine.ts';

// What a replay sends, seen by a target that keeps every request: a token request's form fields
// as the target's client, the token the target issued in place of the recorded one, an id the
// client chose made afresh and quoted afresh later, the recorded organisation as the client's.

const RECORDED_ORG = '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb';
const TARGET_ORG = '5b5a6b4d-0f1e-4f4e-9a57-3f1a8d8a2b11';
const CHOSEN = 'ad27e265-9605-4b4b-a0e5-3003ea9cc4dc';

let server: Server;
let base: string;
const seen: Array<{ method: string; url: string; authorization?: string; body: string }> = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/oauth2/token')
        return res.end(JSON.stringify({ access_token: 'issued-here', token_type: 'Bearer' }));
      res.statusCode = req.method === 'POST' ? 201 : 200;
      res.end(body || JSON.stringify({ data: { id: req.url!.split('/').at(-1) } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const recordedToken = maskToken('recorded-token');
const exchanges: Exchange[] = [
  {
    seq: 1,
    started_at: '',
    request: {
      method: 'POST',
      path: '/v1/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=recorded-client&client_secret=%3Cmasked%3E',
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: recordedToken, token_type: 'Bearer' }),
    },
  },
  {
    seq: 2,
    started_at: '',
    request: {
      method: 'POST',
      path: '/v1/organisation/accounts',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${recordedToken}` },
      auth: { scheme: 'bearer', token: recordedToken },
      body: JSON.stringify({ data: { id: CHOSEN, organisation_id: RECORDED_ORG } }),
    },
    response: {
      status: 201,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { id: CHOSEN, organisation_id: RECORDED_ORG } }),
    },
  },
  {
    seq: 3,
    started_at: '',
    request: {
      method: 'GET',
      path: `/v1/organisation/accounts/${CHOSEN}`,
      headers: {},
      auth: { scheme: 'bearer', token: recordedToken },
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { id: CHOSEN } }),
    },
  },
];

describe('replayExchanges', () => {
  it('sends each request as the target should get it, and finds no divergence', async () => {
    const outcomes = await replayExchanges(exchanges, [
      replayTarget(base, { id: 'mine', secret: 's3cret' }, TARGET_ORG),
    ]);
    expect(outcomes.flatMap((o) => o.divergences)).toEqual([]);
    const [token, create, read] = seen;
    expect(new URLSearchParams(token!.body).get('client_id')).toBe('mine');
    expect(new URLSearchParams(token!.body).get('client_secret')).toBe('s3cret');
    expect(create!.authorization).toBe('Bearer issued-here');
    const sent = JSON.parse(create!.body) as { data: { id: string; organisation_id: string } };
    expect(sent.data.organisation_id).toBe(TARGET_ORG);
    expect(sent.data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.data.id).not.toBe(CHOSEN);
    expect(read!.url).toBe(`/v1/organisation/accounts/${sent.data.id}`);
    expect(read!.authorization).toBe('Bearer issued-here');
  });
});
