import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../api/journal/request-journal.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { listen, type RunningServer } from './server.ts';

// The request journal as the real server fills it: the answer's text is taken from what Node
// writes (src/api/journal/journal-layer.ts), not from a clone of the web Response.
let rt: TestRuntime;
let server: RunningServer;
beforeEach(async () => {
  rt = await testRuntime();
  server = await listen(rt, 0);
});
afterEach(() => server.close());

const json = async (res: Response) => (await res.json()) as any;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${await rt.token()}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('the request journal of the real server', () => {
  it('keeps a success’s answer and an error’s error_code, with the request body and masked token', async () => {
    const logged: JournalEntry[] = [];
    rt.deps.journal?.onRecord((e) => logged.push(e));
    const refused = await json(await call('POST', '/v1/organisation/accounts?x=1', { data: { id: 'nope' } }));
    const health = await (await fetch(`${server.url}/health`)).text();
    const listed = await json(await call('GET', '/v1/simulator/requests'));
    const [refusedEntry] = listed.data.map((e: { attributes: JournalEntry }) => e.attributes);
    expect(refusedEntry).toMatchObject({
      method: 'POST',
      path: '/v1/organisation/accounts',
      query: 'x=1',
      status: 400,
      error_code: refused.error_code,
      body: '{"data":{"id":"nope"}}',
      organisation_id: NORTHWIND.organisation_id,
    });
    expect(JSON.parse(refusedEntry.response_body)).toEqual(refused);
    expect(refusedEntry.headers.authorization).toBe('Bearer ***');
    // A listener (the request log) is told at once, error_code included; /health is no organisation's.
    const seen = logged.filter((e) => e.path === '/health' || e.path === '/v1/organisation/accounts');
    expect(seen.map((e) => [e.path, e.status, e.error_code])).toEqual([
      ['/v1/organisation/accounts', 400, refused.error_code],
      ['/health', 200, undefined],
    ]);
    expect(seen[1]).toMatchObject({ response_body: health });
  });

  it('says Vary: Origin on an answer to a request without an Origin, as on a browser’s', async () => {
    const plain = await call('GET', '/v1/organisation/accounts');
    expect(plain.headers.get('vary')).toBe('Origin');
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    const browser = await call('GET', '/v1/organisation/accounts', undefined, { origin: 'http://localhost:5173' });
    expect(browser.headers.get('vary')).toBe('Origin');
    expect(browser.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });
});
