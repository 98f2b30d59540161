import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assertMatchesSchema,
  copRequest,
  NORTHWIND,
  NORTHWIND_COP_PATH,
  type TestRuntime,
  testRuntime,
} from '../../test/support/testing.ts';
import { listen } from './server.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;

describe('name verification in the journal', () => {
  it('files a CoP request under its organisation, through Hono and through the Node adapter', async () => {
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
      expect(e.attributes).toMatchObject({ method: 'POST', status: 200, organisation_id: NORTHWIND.organisation_id });
      expect(e.attributes.body).toContain('Samantha');
      expect(e.attributes.response_body).toContain('VerificationReport');
      expect(e.attributes.headers.authorization).toBe('Bearer ***');
    }
  });
});
