import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { schemaValidator } from '../schemas/index.ts';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

function tokenRequest(headers: Record<string, string>, body = 'grant_type=client_credentials', method = 'POST') {
  return rt.app.request('/v1/oauth2/token', { method, headers, ...(method === 'GET' ? {} : { body }) });
}

async function errorOf(res: Response) {
  const json = (await res.json()) as Record<string, string>;
  expect(schemaValidator('error')(json)).toBe(true);
  return json;
}

describe('POST /v1/oauth2/token', () => {
  it('issues a bearer token for good client credentials', async () => {
    const res = await tokenRequest({
      authorization: basic(NORTHWIND.client_id, NORTHWIND.client_secret),
      'content-type': FORM,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const json = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(schemaValidator('token')(json)).toBe(true);
    expect(json).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
  });

  it('accepts a form content type with a charset and form-encoded credentials (RFC 6749 2.3.1)', async () => {
    const res = await tokenRequest({
      authorization: basic(encodeURIComponent(NORTHWIND.client_id), encodeURIComponent(NORTHWIND.client_secret)),
      'content-type': `${FORM}; charset=UTF-8`,
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['no Authorization header', {}],
    ['a Bearer header', { authorization: 'Bearer abc' }],
    ['Basic without a colon', { authorization: `Basic ${Buffer.from('nocolon').toString('base64')}` }],
    ['Basic with junk', { authorization: 'Basic %%%' }],
  ])('401s with WWW-Authenticate: Basic given %s', async (_label, headers: Record<string, string>) => {
    const res = await tokenRequest({ ...headers, 'content-type': FORM });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await errorOf(res)).error_message).toContain('HTTP Basic');
  });

  it.each([
    ['a wrong secret', basic(NORTHWIND.client_id, 'wrong')],
    ['an unknown client', basic('nobody', NORTHWIND.client_secret)],
    ["another client's secret", basic(NORTHWIND.client_id, HARBOUR.client_secret)],
    ['an empty secret', basic(NORTHWIND.client_id, '')],
  ])('403s %s and never echoes the secret', async (_label, authorization) => {
    const log = vi.spyOn(console, 'error');
    const res = await tokenRequest({ authorization, 'content-type': FORM });
    expect(res.status).toBe(403);
    const body = await errorOf(res);
    expect(body.error_message).toBe('invalid client credentials');
    expect(JSON.stringify(body)).not.toContain('secret');
    expect(log).not.toHaveBeenCalled();
  });

  it('400s an unsupported grant type with unsupported_grant_type', async () => {
    const res = await tokenRequest(
      { authorization: basic(NORTHWIND.client_id, NORTHWIND.client_secret), 'content-type': FORM },
      'grant_type=password',
    );
    expect(res.status).toBe(400);
    const body = await errorOf(res);
    expect(body.error).toBe('unsupported_grant_type');
    expect(body.error_message).toContain('grant_type password is not supported');
  });

  it.each([[''], ['scope=x'], ['grant_type=']])(
    '400s a missing grant_type (body %j) as invalid_request',
    async (form) => {
      const res = await tokenRequest(
        { authorization: basic(NORTHWIND.client_id, NORTHWIND.client_secret), 'content-type': FORM },
        form,
      );
      expect(res.status).toBe(400);
      const body = await errorOf(res);
      expect(body.error).toBe('invalid_request');
      expect(body.error_message).toBe('grant_type in body is required');
    },
  );

  it.each([['application/json'], ['text/plain'], ['']])('415s content type %j', async (type) => {
    const headers: Record<string, string> = { authorization: basic(NORTHWIND.client_id, NORTHWIND.client_secret) };
    if (type) headers['content-type'] = type;
    const res = await tokenRequest(
      headers,
      type === 'application/json' ? '{"grant_type":"client_credentials"}' : 'grant_type=client_credentials',
    );
    expect(res.status).toBe(415);
    expect((await errorOf(res)).error_message).toContain('application/x-www-form-urlencoded');
  });

  it('issues a token for Basic credentials with no body and no Content-Type, as Form3’s Go SDK asks', async () => {
    const res = await rt.app.request('/v1/oauth2/token', {
      method: 'POST',
      headers: { authorization: basic(NORTHWIND.client_id, NORTHWIND.client_secret) },
    });
    expect(res.status).toBe(200);
    const token = ((await res.json()) as { access_token: string }).access_token;
    const accounts = await rt.app.request('/v1/organisation/accounts', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(accounts.status).toBe(200);
    const refused = await rt.app.request('/v1/oauth2/token', {
      method: 'POST',
      headers: { authorization: basic(NORTHWIND.client_id, 'wrong') },
    });
    expect(refused.status).toBe(403);
  });

  it.each([
    ['no credentials', 401, 'invalid_client', {}, 'grant_type=client_credentials'],
    ['a wrong secret', 403, 'invalid_client', { authorization: basic(NORTHWIND.client_id, 'wrong') }, undefined],
    ['no grant_type', 400, 'invalid_request', {}, 'scope=x'],
    ['a password grant', 400, 'unsupported_grant_type', {}, 'grant_type=password'],
    ['a JSON body', 415, 'invalid_request', { 'content-type': 'application/json' }, '{}'],
    ['a body over 1 MiB', 413, 'invalid_request', { 'content-length': String(2 * 1024 * 1024) }, 'x'],
    ['a GET', 405, 'invalid_request', {}, 'GET'],
  ] as const)(
    'answers %s in the one shape of every token error: %i %s',
    async (_label, status, error, headers, body) => {
      const good = { authorization: basic(NORTHWIND.client_id, NORTHWIND.client_secret), 'content-type': FORM };
      const sent: Record<string, string> = status === 401 ? { 'content-type': FORM } : { ...good, ...headers };
      const res =
        body === 'GET'
          ? await tokenRequest(sent, '', 'GET')
          : await tokenRequest(sent, body ?? 'grant_type=client_credentials');
      expect(res.status).toBe(status);
      const json = (await res.json()) as Record<string, string>;
      expect(schemaValidator('token-error')(json), JSON.stringify(json)).toBe(true);
      expect(json.error).toBe(error);
      expect(json.error_description).toBe(json.error_message);
    },
  );

  it('405s other methods with Allow: POST', async () => {
    const res = await tokenRequest({}, '', 'GET');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('honours a configured token lifetime', async () => {
    const short = await testRuntime({ tokenTtlSeconds: 60 });
    const res = await short.app.request('/v1/oauth2/token', {
      method: 'POST',
      headers: { authorization: basic(NORTHWIND.client_id, NORTHWIND.client_secret), 'content-type': FORM },
      body: 'grant_type=client_credentials',
    });
    expect(((await res.json()) as { expires_in: number }).expires_in).toBe(60);
    await short.close();
  });
});

describe('bearer tokens on /v1 routes', () => {
  const LIST = '/v1/organisation/accounts';
  const get = (authorization?: string) =>
    rt.app.request(LIST, authorization === undefined ? {} : { headers: { authorization } });

  it('accepts the scheme word in any case', async () => {
    const token = await rt.token();
    for (const word of ['Bearer', 'bearer', 'BEARER', 'bEaReR'])
      expect((await get(`${word} ${token}`)).status).toBe(200);
  });

  it.each([
    ['no Authorization header', undefined, 'Authorization header is required'],
    ['an empty header', '', 'Authorization header is required'],
    ['the Basic scheme', basic(NORTHWIND.client_id, NORTHWIND.client_secret), 'must use the Bearer scheme'],
    ['Bearer without a token', 'Bearer', 'must use the Bearer scheme'],
    ['an unknown token', 'Bearer not-a-token', 'invalid access token'],
    ['a token with three parts', 'Bearer a.b.c', 'invalid access token'],
  ])('401s %s with WWW-Authenticate: Bearer', async (_label, authorization, message) => {
    const res = await get(authorization);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await errorOf(res)).error_message).toContain(message);
  });

  it('401s a tampered token: claims changed or signature changed', async () => {
    const token = await rt.token();
    const [body, sig] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, organisation_id: HARBOUR.organisation_id })).toString(
      'base64url',
    );
    expect((await get(`Bearer ${forged}.${sig}`)).status).toBe(401);
    const flipped = sig.slice(0, -2) + (sig.endsWith('AA') ? 'BB' : 'AA');
    expect((await get(`Bearer ${body}.${flipped}`)).status).toBe(401);
  });

  it('expires tokens on the wall clock, not the scheme clock', async () => {
    const token = await rt.token();
    rt.wall.advanceMs(3599_000);
    expect((await get(`Bearer ${token}`)).status).toBe(200);
    rt.wall.advanceMs(1_000);
    const res = await get(`Bearer ${token}`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await errorOf(res)).error_message).toBe('access token expired');
  });

  it('does not follow the scheme clock: advancing it 20 working days keeps the token valid', async () => {
    const token = await rt.token();
    const res = await rt.app.request('/v1/simulator/clock/advance', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ working_days: 20 }),
    });
    expect(res.status).toBe(200);
    expect((await get(`Bearer ${token}`)).status).toBe(200);
  });

  it('a token from another runtime (another signing key) is unknown', async () => {
    const other = await testRuntime();
    const foreign = await other.token();
    await other.close();
    expect((await get(`Bearer ${foreign}`)).status).toBe(401);
  });

  it('only /health and the token endpoint answer without a token', async () => {
    expect((await rt.app.request('/health')).status).toBe(200);
    for (const path of [
      LIST,
      `${LIST}/ad27e265-9605-4b4b-a0e5-3003ea9cc4dc`,
      '/v1/simulator/clock',
      '/v1/no/such/route',
    ]) {
      const res = await rt.app.request(path);
      expect(res.status, path).toBe(401);
    }
  });
});

describe('--auth off', () => {
  it('serves /v1 without a token, and still issues tokens', async () => {
    const open = await testRuntime({ auth: 'off' });
    const res = await open.app.request(LIST_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        data: {
          id: crypto.randomUUID(),
          organisation_id: NORTHWIND.organisation_id,
          type: 'accounts',
          attributes: { country: 'FR', name: ['Anne'] },
        },
      }),
    });
    expect(res.status).toBe(201);
    const list = (await (await open.app.request(LIST_PATH)).json()) as { data: unknown[] };
    expect(list.data).toHaveLength(1);
    const forOther = await open.app.request(LIST_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        data: {
          id: crypto.randomUUID(),
          organisation_id: HARBOUR.organisation_id,
          type: 'accounts',
          attributes: { country: 'FR', name: ['Anne'] },
        },
      }),
    });
    // As Form3's fake account API: any organisation, which partitions (accounts-fake-api.test.ts).
    expect(forOther.status).toBe(201);
    expect((await open.call('GET', LIST_PATH)).status).toBe(200);
    await open.close();
  });
});

const LIST_PATH = '/v1/organisation/accounts';
