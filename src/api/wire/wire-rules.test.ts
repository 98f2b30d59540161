import { describe, expect, it } from 'vitest';
import { testRuntime } from '../../harness/test-runtime.ts';
import { wireRules } from './wire-rules.ts';

describe('the wire of each rules', () => {
  it("serves GET /v1/health under the fake account API's, as it answers it; Form3's has no such route", async () => {
    expect(wireRules('fake-account-api').health).toEqual({ status: 'up' });
    expect(wireRules('form3').health).toBeUndefined();
    const off = await testRuntime({ auth: 'off' });
    const on = await testRuntime();
    try {
      const up = await off.app.request('/v1/health');
      expect(up.status).toBe(200);
      expect(await up.text()).toBe('{"status":"up"}');
      expect((await on.call('GET', '/v1/health')).status).toBe(404);
    } finally {
      await off.close();
      await on.close();
    }
  });

  it("reads a body sent as application/vnd.Form3+json as JSON under the fake account API's, in any case", async () => {
    const off = await testRuntime({ auth: 'off' });
    const on = await testRuntime();
    const body = (id: string) =>
      JSON.stringify({
        data: {
          id,
          organisation_id: crypto.randomUUID(),
          type: 'accounts',
          attributes: { country: 'FR', name: ['A'] },
        },
      });
    try {
      for (const type of ['application/vnd.Form3+json', 'APPLICATION/VND.FORM3+JSON; charset=utf-8']) {
        const res = await off.app.request('/v1/organisation/accounts', {
          method: 'POST',
          headers: { 'content-type': type },
          body: body(crypto.randomUUID()),
        });
        expect(res.status, await res.clone().text()).toBe(201);
      }
      const refused = await on.call('POST', '/v1/organisation/accounts', body(crypto.randomUUID()), {
        headers: { 'content-type': 'application/vnd.Form3+json' },
      });
      expect(refused.status).toBe(415);
    } finally {
      await off.close();
      await on.close();
    }
  });
});
