import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

// GET /: a browser finds the pages; every other client keeps the 404 of a path no route serves.

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let on: TestRuntime;
let off: TestRuntime;
beforeAll(async () => {
  on = await testRuntime();
  off = await testRuntime({ auth: 'off' });
});
afterAll(async () => {
  await on.close();
  await off.close();
});

describe('GET /', () => {
  it.each([
    ['auth on', () => on],
    ['auth off', () => off],
  ])(
    'answers a browser with a page linking the dashboard, the reference and the OpenAPI document (%s)',
    async (_mode, rt) => {
      const res = await rt().app.request('/', { headers: { accept: BROWSER } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      for (const href of ['/dashboard', '/docs', '/v1/openapi.json', '/health'])
        expect(html).toContain(`href="${href}"`);
    },
  );

  it('keeps the 404 of an unrouted path for JSON clients, curl and no Accept', async () => {
    for (const accept of ['application/json', '*/*', undefined]) {
      const headers: Record<string, string> = accept ? { accept } : {};
      const form3 = await on.app.request('/', { headers });
      expect(form3.status, String(accept)).toBe(404);
      expect(((await form3.json()) as { error_message: string }).error_message).toBe('route GET / not found');
      // The fake account API's clients assert its PAGE_NOT_FOUND at GET / (--auth off).
      const fake = await off.app.request('/', { headers });
      expect(fake.status).toBe(404);
      expect(await fake.text()).toBe('{"code":"PAGE_NOT_FOUND","message":"Page not found"}');
    }
  });
});
