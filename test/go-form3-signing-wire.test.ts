import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form3SignedHeaders } from '../src/client/form3-request-signer.ts';
import { NORTHWIND } from '../src/harness/test-runtime.ts';
import { listen, type RunningServer } from '../src/node/server.ts';
import { createRuntime } from '../src/runtime.ts';
import { DEV_SIGNING_KEY_ID, devSigningKey } from './support/dev-signing-key.ts';
import { go3ModelProblems } from './support/go-form3-models.ts';

// Form3's Go SDK in its request-signing mode (the one it recommends), reproduced on the wire with
// the dev key of the fixtures, against a listening simulator: no token at all.

let server: RunningServer;
beforeAll(async () => {
  server = await listen(await createRuntime({ memory: true, seedAccounts: false, scheduledReports: false }), 0);
});
afterAll(() => server.close());

async function signed(
  method: string,
  path: string,
  body?: unknown,
  tweak: (h: Record<string, string>) => void = () => {},
) {
  const url = new URL(`${server.url}${path}`);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = form3SignedHeaders(url, method, text, DEV_SIGNING_KEY_ID, devSigningKey());
  tweak(headers);
  return fetch(url, {
    method,
    headers: { Accept: 'application/vnd.api+json', ...headers },
    ...(text ? { body: text } : {}),
  });
}

describe("Form3's Go SDK, request-signing mode, on the wire", () => {
  it('creates, fetches, lists, amends and deletes an account with signed requests only', async () => {
    const id = randomUUID();
    const org = NORTHWIND.organisation_id;
    const created = await signed('POST', '/v1/organisation/accounts', {
      data: {
        attributes: { bank_id: '400300', bank_id_code: 'GBDSC', bic: 'NWBKGB22', country: 'GB', name: ['Sam Holder'] },
        id,
        organisation_id: org,
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect(go3ModelProblems('Account', await created.json())).toEqual([]);
    const got = await signed('GET', `/v1/organisation/accounts/${id}`);
    expect(got.status).toBe(200);
    expect(go3ModelProblems('Account', await got.json())).toEqual([]);
    const listed = await signed('GET', `/v1/organisation/accounts?filter%5Borganisation_id%5D=${org}`);
    expect(listed.status).toBe(200);
    expect(go3ModelProblems('Account', await listed.json())).toEqual([]);
    const amended = await signed('PATCH', `/v1/organisation/accounts/${id}`, {
      data: {
        attributes: { alternative_bank_account_names: null, alternative_names: null, name: null, switched: true },
        id,
        organisation_id: org,
        version: 0,
      },
    });
    expect(amended.status, await amended.clone().text()).toBe(200);
    expect(go3ModelProblems('Account', await amended.json())).toEqual([]);
    expect((await signed('DELETE', `/v1/organisation/accounts/${id}?version=1`)).status).toBe(204);
  });

  const account = () => ({
    data: {
      attributes: { country: 'FR', name: ['Anne'] },
      id: randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
    },
  });

  it.each([
    [
      'a body changed after signing',
      (h: Record<string, string>) => (h.Digest = h.Digest!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))),
      'digest does not match the body',
    ],
    [
      'a Date an hour old',
      (h: Record<string, string>) => (h.Date = new Date(Date.now() - 3_600_000).toUTCString()),
      'is more than 5 minutes from',
    ],
    [
      'an unknown key id',
      (h: Record<string, string>) => (h.Authorization = h.Authorization!.replace(DEV_SIGNING_KEY_ID, randomUUID())),
      'is not a key of any client',
    ],
    [
      'a tampered signature',
      (h: Record<string, string>) =>
        (h.Authorization = h.Authorization!.replace(/signature="(.)/, (_, c) => `signature="${c === 'A' ? 'B' : 'A'}`)),
      'does not verify',
    ],
    [
      'another algorithm',
      (h: Record<string, string>) => (h.Authorization = h.Authorization!.replace('rsa-sha256', 'hmac-sha256')),
      'algorithm hmac-sha256 is not supported',
    ],
    [
      'no date in the signed headers',
      (h: Record<string, string>) => (h.Authorization = h.Authorization!.replace(' date', '')),
      'headers must include date',
    ],
  ])('refuses %s with a 401 naming it', async (_what, tweak, reason) => {
    const res = await signed('POST', '/v1/organisation/accounts', account(), tweak);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error_message: string }).error_message).toContain(reason);
  });

  it('refuses a replay of the same signed change, and lets a poller GET twice in a second', async () => {
    const url = new URL(`${server.url}/v1/organisation/accounts`);
    const body = JSON.stringify(account());
    const headers = form3SignedHeaders(url, 'POST', body, DEV_SIGNING_KEY_ID, devSigningKey());
    expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(201);
    const again = await fetch(url, { method: 'POST', headers, body });
    expect(again.status).toBe(401);
    expect(((await again.json()) as { error_message: string }).error_message).toContain('already used');
    const get = form3SignedHeaders(url, 'GET', undefined, DEV_SIGNING_KEY_ID, devSigningKey());
    expect((await fetch(url, { headers: get })).status).toBe(200);
    expect((await fetch(url, { headers: get })).status).toBe(200);
  });
});
