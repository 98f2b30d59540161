import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { schemaValidator } from './schemas/index.ts';

const BASE = '/v1/organisation/accounts';
type Json = Record<string, any>;

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as Json;

describe('error layer', () => {
  it('404s an unknown route with an error body', async () => {
    const res = await rt.app.request('/nowhere');
    expect(res.status).toBe(404);
    expect(schemaValidator('error')(await json(res))).toBe(true);
    const authed = await rt.call('GET', '/v1/organisation/nothing');
    expect(authed.status).toBe(404);
    expect((await json(authed)).error_message).toBe('route GET /v1/organisation/nothing not found');
  });

  it('405s a wrong method with Allow', async () => {
    const res = await rt.call('PUT', BASE, {});
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    const one = await rt.call('POST', `${BASE}/${crypto.randomUUID()}`, {});
    expect(one.status).toBe(405);
    expect(one.headers.get('allow')).toBe('GET, PATCH, DELETE');
  });

  it('413s a body over 1 MiB, with or without a Content-Length', async () => {
    const big = `{"x":"${'a'.repeat(1024 * 1024)}"}`;
    expect((await rt.call('POST', BASE, big)).status).toBe(413);
    const streamed = await rt.app.request(BASE, {
      method: 'POST',
      headers: { authorization: `Bearer ${await rt.token()}`, 'content-type': 'application/json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    // The unread rest of the body makes the connection unusable: the client must not reuse it.
    expect(streamed.headers.get('connection')).toBe('close');
    expect((await json(streamed)).error_message).toBe('request body is larger than 1048576 bytes (1 MiB)');
  });

  it('accepts a body of exactly 1 MiB (it then fails validation, not the size limit)', async () => {
    const pad = 1024 * 1024 - '{"x":""}'.length;
    const res = await rt.call('POST', BASE, `{"x":"${'a'.repeat(pad)}"}`);
    expect(res.status).toBe(400);
  });

  it('415s a wrong content type and 400s malformed JSON', async () => {
    expect((await rt.call('POST', BASE, '{}', { headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    const bad = await rt.call('POST', BASE, '{"data":');
    expect(bad.status).toBe(400);
    expect((await json(bad)).error_message).toMatch(/^request body is not valid JSON/);
  });

  it('accepts and answers application/vnd.api+json', async () => {
    const id = crypto.randomUUID();
    const res = await rt.call(
      'POST',
      BASE,
      {
        data: {
          id,
          organisation_id: NORTHWIND.organisation_id,
          type: 'accounts',
          attributes: { country: 'GB', name: ['x'], ...NORTHWIND.bank },
        },
      },
      { headers: { 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' } },
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
    const get = await rt.call('GET', `${BASE}/${id}`, undefined, { headers: { accept: 'application/vnd.api+json' } });
    expect(get.headers.get('content-type')).toBe('application/vnd.api+json');
    const err = await rt.call('GET', `${BASE}/nope`, undefined, { headers: { accept: 'application/vnd.api+json' } });
    expect(err.headers.get('content-type')).toBe('application/vnd.api+json');
    const plain = await rt.call('GET', `${BASE}/${id}`, undefined, {
      headers: { accept: 'application/json, application/vnd.api+json' },
    });
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('turns a thrown non-client error into a logged 500 that leaks nothing', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(rt.sim.accounts, 'list').mockImplementation(() => {
      throw new Error('connection string postgres://admin:hunter2@db');
    });
    const res = await rt.call('GET', BASE);
    expect(res.status).toBe(500);
    const body = await json(res);
    expect(schemaValidator('error')(body)).toBe(true);
    expect(JSON.stringify(body)).not.toContain('hunter2');
    expect(body.error_message).toBe('internal error; quote the error_code when reporting it');
    expect(log).toHaveBeenCalledOnce();
    expect(String(log.mock.calls[0]![0])).toContain(`error_code=${body.error_code}`);
    vi.restoreAllMocks();
  });

  it('serves /health without a token, GET only', async () => {
    const post = await rt.app.request('/health', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    const res = await rt.app.request('/health');
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      status: 'ok',
      now: '2026-12-21T09:00:00.000Z',
      clock: 'frozen',
      store: 'memory',
    });
  });
});
