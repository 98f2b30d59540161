import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copRequest, NORTHWIND_COP_PATH } from '../../test/support/testing.ts';
import { assertMatchesSchema } from '../harness/assert-schema.ts';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { listen } from './server.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;

describe('name verification in the journal', () => {
  it('files a CoP request under its organisation, through Hono and through the Node adapter', async () => {
    rt.sim.clock.setTo(new Date('2027-01-04T12:00:00.000Z'));
    const viaHono = await rt.call('POST', NORTHWIND_COP_PATH, copRequest());
    expect(viaHono.status).toBe(200);
    const server = await listen(rt, 0);
    try {
      const token = await rt.token();
      const viaNode = await fetch(`${server.url}${NORTHWIND_COP_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(copRequest()),
      });
      expect(viaNode.status).toBe(200);
    } finally {
      await server.close();
    }
    const listed = await json(await rt.call('GET', `/v1/simulator/requests?filter[path]=${NORTHWIND_COP_PATH}`));
    assertMatchesSchema('request-journal', listed);
    expect(listed.data).toHaveLength(2);
    for (const e of listed.data) {
      expect(e.attributes).toMatchObject({
        method: 'POST',
        status: 200,
        organisation_id: NORTHWIND.organisation_id,
        time: '2026-12-21T09:00:00.000Z',
        scheme_time: '2027-01-04T12:00:00.000Z',
      });
      expect(e.attributes.body).toContain('Samantha');
      expect(e.attributes.response_body).toContain('VerificationReport');
      expect(e.attributes.headers.authorization).toBe('Bearer ***');
    }
  });
});

describe('a browser calling name verification on the real server', () => {
  it('gets its CORS preflight and answer headers (the Node adapter leaves requests with an Origin to Hono)', async () => {
    const server = await listen(rt, 0);
    try {
      const res = await fetch(`${server.url}${NORTHWIND_COP_PATH}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,x-fapi-financial-id',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(res.headers.get('access-control-allow-headers')).toContain('x-fapi-financial-id');
      const token = await rt.token();
      const answer = await fetch(`${server.url}${NORTHWIND_COP_PATH}`, {
        method: 'POST',
        headers: {
          origin: 'http://localhost:5173',
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(copRequest()),
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    } finally {
      await server.close();
    }
  });
});
