// The generated run's client: a token once, or Form3's request signing where the target asks for it
// (one Content-Type, signed), and each request kept as sent for its curl.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Target } from '../support/targets.ts';
import { ExchangeClient } from './exchange-client.ts';

function targetSeeing(seen: Request[], signing?: Target['clients'][string]['signing']): Target {
  return {
    name: 'inprocess',
    baseUrl: 'http://t.test',
    fetch: async (r) => {
      seen.push(r);
      if (r.url.endsWith('/v1/oauth2/token')) return Response.json({ access_token: 'tok' });
      return Response.json({ data: {} }, { status: 201 });
    },
    clients: {
      default: { client_id: 'c', client_secret: 's', organisation_id: 'o', ...(signing ? { signing } : {}) },
    },
    bank: { sort_code: '400300', bic: 'NWBKGB22' },
    cop: { participant: 'p', account: '1', name: 'n', type: 'Personal' },
    close: async () => {},
  };
}

describe('ExchangeClient', () => {
  it('asks for a token once and sends it as a bearer', async () => {
    const seen: Request[] = [];
    const client = new ExchangeClient(targetSeeing(seen));
    await client.send('GET', '/v1/a');
    const { sent } = await client.send('POST', '/v1/b', { x: 1 });
    expect(seen.filter((r) => r.url.endsWith('/v1/oauth2/token'))).toHaveLength(1);
    expect(seen.at(-1)!.headers.get('authorization')).toBe('Bearer tok');
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/b', body: '{"x":1}' });
  });

  it('signs as Form3 does where the client has a key, with one Content-Type', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const seen: Request[] = [];
    const client = new ExchangeClient(targetSeeing(seen, { key_id: 'k1', key: privateKey }));
    await client.send('POST', '/v1/b', { x: 1 });
    const request = seen.at(-1)!;
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.headers.get('authorization')).toMatch(/keyId="k1"/);
    expect(seen.some((r) => r.url.endsWith('/v1/oauth2/token'))).toBe(false);
  });
});
