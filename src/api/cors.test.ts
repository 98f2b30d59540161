import { afterEach, describe, expect, it } from 'vitest';
import { type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
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
