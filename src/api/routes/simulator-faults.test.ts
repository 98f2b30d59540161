import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HARBOUR, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { listen } from '../../node/server.ts';
import { FAULT_HEADER } from '../layers/fault-layer.ts';
import { schemaValidator } from '../schemas/index.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const BASE = '/v1/simulator/faults';
const rule = (attributes: Record<string, unknown>) => ({ data: { attributes } });
const json = async (res: Response) => (await res.json()) as any;

describe('/v1/simulator/faults', () => {
  it('a 503 with Retry-After, marked as injected, then the real answer once the count is used', async () => {
    const set = await rt.call(
      'POST',
      BASE,
      rule({ route: '/v1/organisation/accounts', count: 1, status: 503, retry_after: 2 }),
    );
    expect(set.status).toBe(201);
    const created = await json(set);
    expect(schemaValidator('fault')(created.data)).toBe(true);
    const first = await rt.call('GET', '/v1/organisation/accounts');
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(first.headers.get(FAULT_HEADER)).toBe(created.data.id);
    expect((await json(first)).error_message).toBe(`injected fault ${created.data.id}: 503`);
    expect((await rt.call('GET', '/v1/organisation/accounts')).status).toBe(200);
    const list = await json(await rt.call('GET', BASE));
    expect(schemaValidator('fault-list')(list)).toBe(true);
    expect(list.data[0].attributes).toMatchObject({ remaining: 0, injected: 1 });
  });

  it("adds latency, touches only the caller's organisation and never /v1/simulator", async () => {
    await rt.call('POST', BASE, rule({ route: '/v1/**', latency_ms: 20 }));
    const started = Date.now();
    const slow = await rt.call('GET', '/v1/organisation/accounts');
    expect(slow.status).toBe(200);
    expect(slow.headers.get(FAULT_HEADER)).toMatch(/latency 20 ms$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    expect(
      (await rt.call('GET', '/v1/organisation/accounts', undefined, { client: HARBOUR })).headers.get(FAULT_HEADER),
    ).toBeNull();
    expect((await rt.call('GET', BASE)).headers.get(FAULT_HEADER)).toBeNull();
  });

  it('deletes one rule or all; another organisation cannot', async () => {
    const id = (await json(await rt.call('POST', BASE, rule({ route: '/v1/**', status: 500 })))).data.id;
    expect((await rt.call('DELETE', `${BASE}/${id}`, undefined, { client: HARBOUR })).status).toBe(404);
    expect((await rt.call('DELETE', `${BASE}/${id}`)).status).toBe(204);
    await rt.call('POST', BASE, rule({ route: '/v1/**', status: 500 }));
    expect((await rt.call('DELETE', BASE)).status).toBe(204);
    expect((await json(await rt.call('GET', BASE))).data).toEqual([]);
    expect((await rt.call('GET', '/v1/organisation/accounts')).status).toBe(200);
  });

  it('refuses a rule that does nothing, a route outside /v1 and a status it cannot inject, naming the field', async () => {
    for (const [attributes, message] of [
      [{ route: '/v1/**' }, 'latency_ms in body is required'],
      [{ route: '/health', status: 503 }, 'route in body should match'],
      [{ route: '/v1/**', status: 404 }, 'status in body should be one of [429 500 502 503 504]'],
      [{ route: '/v1/**', status: 503, probability: 2 }, 'probability in body should be less than or equal to 1'],
      [{ route: '/v1/**', status: 503, injected: 3 }, 'injected in body is read-only'],
    ] as const) {
      const res = await rt.call('POST', BASE, rule(attributes));
      expect(res.status, JSON.stringify(attributes)).toBe(400);
      expect((await json(res)).error_message).toContain(message);
    }
  });

  it('drops the connection on the real server', async () => {
    await rt.call('POST', BASE, rule({ route: '/v1/organisation/accounts', drop: true, count: 1 }));
    const server = await listen(rt, 0);
    try {
      const token = await rt.token();
      const headers = { authorization: `Bearer ${token}` };
      await expect(fetch(`${server.url}/v1/organisation/accounts`, { headers })).rejects.toThrow();
      expect((await fetch(`${server.url}/v1/organisation/accounts`, { headers })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
