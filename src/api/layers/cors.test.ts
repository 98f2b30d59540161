import { afterEach, describe, expect, it } from 'vitest';
import { type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { parseCorsOrigins } from './cors.ts';

let rt: TestRuntime | undefined;
afterEach(() => rt?.close());

const preflight = (r: TestRuntime, origin: string) =>
  r.app.request('/v1/organisation/accounts', {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });

describe('CORS', () => {
  it('answers a localhost preflight without a token (never 401), and refuses other origins by default', async () => {
    rt = await testRuntime();
    const ok = await preflight(rt, 'http://localhost:5173');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(ok.headers.get('access-control-allow-headers')).toContain('authorization');
    const other = await preflight(rt, 'https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const get = await rt.call('GET', '/v1/organisation/accounts', undefined, {
      headers: { origin: 'http://127.0.0.1:3000' },
    });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
  });

  it('takes a list of origins, any origin, or none', async () => {
    rt = await testRuntime({ cors: parseCorsOrigins('https://app.example,http://qa.local:8080') });
    expect((await preflight(rt, 'https://app.example')).headers.get('access-control-allow-origin')).toBe(
      'https://app.example',
    );
    expect((await preflight(rt, 'http://localhost:5173')).headers.get('access-control-allow-origin')).toBeNull();
    await rt.close();
    rt = await testRuntime({ cors: parseCorsOrigins('off') });
    expect((await preflight(rt, 'http://localhost:5173')).headers.get('access-control-allow-origin')).toBeNull();
    expect(parseCorsOrigins('*')).toEqual({ kind: 'any' });
    expect(() => parseCorsOrigins('app.example')).toThrow(/origins like/);
  });
});

describe('OPTIONS that is not a CORS preflight', () => {
  const UNKNOWN = ['/v1/zzz', '/v1/organisation/accounts/6f0c2a8e-0000-4000-8000-000000000001/zzz', '/zzz'];
  /** Every path of the OpenAPI document (its parameters filled in), whether it needs a token, and unknown paths. */
  async function paths(r: TestRuntime): Promise<Array<{ path: string; open: boolean; known: boolean }>> {
    const doc = (await (await r.app.request('/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const declared = Object.entries(doc.paths).map(([template, operations]) => ({
      // A participant that exists (its routes look it up before the method); any id elsewhere.
      path: template
        .replace('{open_banking_id}', '0015800001041REAAY')
        .replace(/\{[^}]+\}/g, '6f0c2a8e-0000-4000-8000-000000000001'),
      open: Object.values(operations).every((o) => Array.isArray(o.security) && o.security.length === 0),
      known: true,
    }));
    expect(declared.length).toBeGreaterThan(30);
    return [...declared, ...UNKNOWN.map((path) => ({ path, open: !path.startsWith('/v1/'), known: false }))];
  }
  const NOT_PREFLIGHTS: Array<[string, Record<string, string>]> = [
    ['no CORS header', {}],
    ['an Origin only', { origin: 'http://localhost:5173' }],
    ['Access-Control-Request-Method only', { 'access-control-request-method': 'GET' }],
  ];

  it('goes through authentication, then routing, on every route and unknown path: as PUT does', async () => {
    rt = await testRuntime();
    const token = await rt.token();
    for (const { path, open, known } of await paths(rt)) {
      for (const [label, headers] of NOT_PREFLIGHTS) {
        const options = await rt.app.request(path, { method: 'OPTIONS', headers });
        const put = await rt.app.request(path, { method: 'PUT', headers });
        const where = `OPTIONS ${path} with ${label}`;
        expect(options.status, where).toBe(put.status);
        expect(options.status, where).toBe(open ? (known ? 405 : 404) : 401);
        const authorised = await rt.app.request(path, {
          method: 'OPTIONS',
          headers: { ...headers, authorization: `Bearer ${token}` },
        });
        expect(authorised.status, `${where} and a token`).toBe(known ? 405 : 404);
      }
    }
  });

  it('is answered before authentication only as a preflight, on every route and unknown path', async () => {
    rt = await testRuntime();
    for (const { path } of await paths(rt)) {
      const res = await rt.app.request(path, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('http://localhost:5173');
    }
  });

  it("a browser's own OPTIONS request (no preflight headers but its Origin) can read its answer", async () => {
    rt = await testRuntime();
    const res = await rt.call('OPTIONS', '/v1/simulator/clock', undefined, {
      headers: { origin: 'http://localhost:5173' },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('vary')).toContain('Origin');
    const other = await rt.call('OPTIONS', '/v1/simulator/clock', undefined, {
      headers: { origin: 'https://evil.example' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
