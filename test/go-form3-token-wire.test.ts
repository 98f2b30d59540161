import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NORTHWIND } from '../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import { createRuntime } from '../src/runtime.ts';
import { go3ModelProblems } from './support/go-form3-models.ts';

// Form3's Go SDK (form3tech-oss/go-form3) in its token mode, reproduced on the wire, against a
// listening simulator. What the SDK does, from its source (pkg/form3/auth_token.go and the
// go-swagger models of pkg/generated):
// - TokenTransport sends a request without a token first; on 401 or 403 it POSTs
//   /v1/oauth2/token with Basic <client id as a UUID>:<secret>, no body and no Content-Type, reads
//   access_token, and sends the request again with Bearer and the same body;
// - requests are application/vnd.api+json both ways;
// - Account (create) omits empty fields (omitempty), `type` and `version` included;
// - AccountAmendment (PATCH) always sends `name`, `alternative_names` and
//   `alternative_bank_account_names`, null when not set, and no `type`.
// Every answer is held to go-form3's Account model (test/support/go-form3-models.ts); the other
// flows are in go-form3-flows-wire.test.ts, the request-signing mode in go-form3-signing-wire.test.ts.

let server: RunningServer;
beforeAll(async () => {
  const runtime = await createRuntime({ memory: true, seedAccounts: false, scheduledReports: false });
  server = await listen(runtime, 0);
});
afterAll(() => server.close());

/** The SDK's TokenTransport: send, and on 401/403 get a token (body-less) and send again. */
function tokenTransport(clientId: string, secret: string) {
  let token = '';
  return async (method: string, path: string, body?: unknown): Promise<Response> => {
    const send = () =>
      fetch(`${server.url}${path}`, {
        method,
        headers: {
          'User-Agent': 'form3-sdk-go',
          Accept: 'application/vnd.api+json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/vnd.api+json' }),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const first = await send();
    if (first.status !== 401 && first.status !== 403) return first;
    const auth = await fetch(`${server.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    });
    if (auth.status !== 200) throw new Error(`non 200 status code getting token, status code: ${auth.status}`);
    token = ((await auth.json()) as { access_token: string }).access_token;
    return send();
  };
}

describe("Form3's Go SDK, token mode, on the wire", () => {
  it('authenticates by UUID client id and creates, fetches, lists, amends and deletes an account', async () => {
    const call = tokenTransport(NORTHWIND.uuid, NORTHWIND.client_secret);
    const id = randomUUID();
    const org = NORTHWIND.organisation_id;
    const created = await call('POST', '/v1/organisation/accounts', {
      data: {
        attributes: { bank_id: '400300', bank_id_code: 'GBDSC', bic: 'NWBKGB22', country: 'GB', name: ['Sam Holder'] },
        id,
        organisation_id: org,
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect(created.headers.get('content-type')).toContain('application/vnd.api+json');
    const createdBody = (await created.json()) as { data: { type: string; version: number } };
    expect(createdBody.data).toMatchObject({ type: 'accounts', version: 0 });
    expect(go3ModelProblems('Account', createdBody)).toEqual([]);

    const got = await call('GET', `/v1/organisation/accounts/${id}`);
    expect(got.status).toBe(200);
    expect(go3ModelProblems('Account', await got.json())).toEqual([]);
    const listed = await call(
      'GET',
      `/v1/organisation/accounts?filter%5Borganisation_id%5D=${org}&page%5Bnumber%5D=first`,
    );
    expect(listed.status).toBe(200);
    const list = (await listed.json()) as { data: Array<{ id: string }> };
    expect(list.data.map((a) => a.id)).toContain(id);
    expect(go3ModelProblems('Account', list)).toEqual([]);

    const amended = await call('PATCH', `/v1/organisation/accounts/${id}`, {
      data: {
        attributes: { alternative_bank_account_names: null, alternative_names: null, name: null, switched: true },
        id,
        organisation_id: org,
        version: 0,
      },
    });
    expect(amended.status, await amended.clone().text()).toBe(200);
    const amendedBody = (await amended.json()) as { data: object };
    expect(go3ModelProblems('Account', amendedBody)).toEqual([]);
    expect(amendedBody.data).toMatchObject({
      version: 1,
      attributes: { name: ['Sam Holder'], switched: true },
    });

    expect((await call('DELETE', `/v1/organisation/accounts/${id}?version=1`)).status).toBe(204);
    expect((await call('GET', `/v1/organisation/accounts/${id}`)).status).toBe(404);
  });

  it("answers go-form3's own TestTokenAuth: ListUsers in token mode, no page parameters", async () => {
    const call = tokenTransport(NORTHWIND.uuid, NORTHWIND.client_secret);
    const users = await call('GET', '/v1/security/users');
    expect(users.status, await users.clone().text()).toBe(200);
    expect(users.headers.get('content-type')).toContain('application/vnd.api+json');
    const body = (await users.json()) as { data: Array<{ attributes: { client_credential_ids: string[] } }> };
    expect(body.data.map((u) => u.attributes.client_credential_ids)).toEqual([[NORTHWIND.uuid]]);
  });

  it('gets no token for a wrong secret, as the SDK then reports', async () => {
    const call = tokenTransport(NORTHWIND.uuid, 'wrong');
    await expect(call('GET', '/v1/organisation/accounts')).rejects.toThrow(
      'non 200 status code getting token, status code: 403',
    );
  });
});
