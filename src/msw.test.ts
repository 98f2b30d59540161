import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NORTHWIND, type TestRuntime, testRuntime } from './harness/test-runtime.ts';
import { DEFAULT_BASE_URL, handlersFor } from './msw.ts';

// A plain fetch client, as an application under test would have one: it knows nothing of the
// simulator but its base URL and credentials.
function client(baseUrl: string) {
  let token = '';
  return {
    async login() {
      const res = await fetch(`${baseUrl}/v1/oauth2/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${btoa(`${NORTHWIND.client_id}:${NORTHWIND.client_secret}`)}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      });
      if (!res.ok) throw new Error(`login failed: ${res.status}`);
      token = ((await res.json()) as { access_token: string }).access_token;
    },
    async createAccount(id: string, name: string) {
      return fetch(`${baseUrl}/v1/organisation/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({
          data: {
            id,
            organisation_id: NORTHWIND.organisation_id,
            type: 'accounts',
            attributes: { country: 'GB', name: [name], ...NORTHWIND.bank },
          },
        }),
      });
    },
    async account(id: string) {
      return fetch(`${baseUrl}/v1/organisation/accounts/${id}`, { headers: { authorization: `Bearer ${token}` } });
    },
  };
}

const PREFIXED = 'http://gateway.test/payments-api';
let rt: TestRuntime;
const server = setupServer();

beforeAll(async () => {
  rt = await testRuntime();
  server.use(...handlersFor(rt), ...handlersFor(rt, PREFIXED));
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(async () => {
  server.close();
  await rt.close();
});

describe('msw handlers', () => {
  it('let a plain fetch client get a token, create an account and read it back', async () => {
    const api = client(DEFAULT_BASE_URL);
    await api.login();
    const id = crypto.randomUUID();
    const created = await api.createAccount(id, 'Samantha Holder');
    expect(created.status).toBe(201);
    const read = await api.account(id);
    expect(read.status).toBe(200);
    const body = (await read.json()) as {
      data: { id: string; attributes: { name: string[] } };
      links: { self: string };
    };
    expect(body.data.id).toBe(id);
    expect(body.data.attributes.name).toEqual(['Samantha Holder']);
    expect(body.links.self).toBe(`/v1/organisation/accounts/${id}`);
    // It is the same simulator, not a copy: the runtime sees the account.
    expect(rt.sim.accounts.get(id, NORTHWIND.organisation_id).attributes.name).toEqual(['Samantha Holder']);
  });

  it('answer errors as the app does', async () => {
    const api = client(DEFAULT_BASE_URL);
    const unauthenticated = await api.account(crypto.randomUUID());
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await api.login();
    const missing = await api.account('not-a-uuid');
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error_message: string }).error_message).toBe('id is not a valid uuid');
  });

  it('strip a path prefix of the base URL', async () => {
    const api = client(PREFIXED);
    await api.login();
    const id = crypto.randomUUID();
    expect((await api.createAccount(id, 'Prefixed')).status).toBe(201);
    expect((await api.account(id)).status).toBe(200);
    expect((await fetch(`${PREFIXED}/health`)).status).toBe(200);
  });

  it("reach a sandbox by its client's credentials, as the server does", async () => {
    const sandbox = await rt.sandboxes.create({ seed: 'none' });
    const admin = sandbox.clients[0]!;
    const token = await fetch(`${DEFAULT_BASE_URL}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${admin.client_id}:${admin.client_secret}`)}` },
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const accounts = await fetch(`${DEFAULT_BASE_URL}/v1/organisation/accounts`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(((await accounts.json()) as { data: unknown[] }).data).toEqual([]); // its own world: no seed
    const byPrefix = await fetch(`${DEFAULT_BASE_URL}/sandboxes/${sandbox.id}/v1/simulator/clock`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(byPrefix.status).toBe(200);
    await rt.sandboxes.delete(sandbox.id);
  });
});
