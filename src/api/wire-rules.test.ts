import { describe, expect, it } from 'vitest';
import { testRuntime } from '../harness/test-runtime.ts';
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
});
