import { afterEach, describe, expect, it } from 'vitest';
import { assertMatchesSchema } from '../../harness/assert-schema.ts';
import { FENWICK, HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { userIdOf } from '../../sim/security/users.ts';

let rt: TestRuntime;
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;

describe('/v1/security/users', () => {
  it("lists the caller's organisation's users: one per client, with its credential and keys", async () => {
    rt = await testRuntime();
    const res = await rt.call('GET', '/v1/security/users');
    expect(res.status).toBe(200);
    const body = await json(res);
    assertMatchesSchema('user-list', body);
    expect(body.data).toHaveLength(1);
    const [user] = body.data;
    expect(user).toMatchObject({
      type: 'users',
      id: userIdOf(NORTHWIND.uuid),
      organisation_id: NORTHWIND.organisation_id,
      version: 0,
      attributes: { username: 'northwind-dev', role_ids: [], client_credential_ids: [NORTHWIND.uuid] },
    });
    // The fixture client's signing key is one of the user's public keys (request signing's keyId).
    expect(user.attributes.public_key_ids).toContain('0d3f8c5e-2b7a-4f1d-9c6e-5a4b3c2d1e0f');
    expect(body.links).toMatchObject({ self: '/v1/security/users?page%5Bnumber%5D=0&page%5Bsize%5D=100' });

    const harbour = await json(await rt.call('GET', '/v1/security/users', undefined, { client: HARBOUR }));
    expect(harbour.data.map((u: any) => u.attributes.client_credential_ids)).toEqual([[HARBOUR.uuid]]);
  });

  it('fetches a user and lists its credentials, never a secret', async () => {
    rt = await testRuntime();
    const id = userIdOf(NORTHWIND.uuid);
    const one = await rt.call('GET', `/v1/security/users/${id}`);
    expect(one.status).toBe(200);
    const body = await json(one);
    assertMatchesSchema('user-single', body);
    expect(body.links.self).toBe(`/v1/security/users/${id}`);

    const credentials = await rt.call('GET', `/v1/security/users/${id.toUpperCase()}/credentials`);
    expect(credentials.status).toBe(200);
    const text = await credentials.text();
    assertMatchesSchema('user-credential-list', JSON.parse(text));
    expect(JSON.parse(text)).toEqual({
      data: [{ client_id: NORTHWIND.uuid }],
      links: { self: `/v1/security/users/${id}/credentials` },
    });
    expect(text).not.toContain(NORTHWIND.client_secret);
  });

  it("answers 404 for another organisation's user, 400 for a malformed id, 405 for a write", async () => {
    rt = await testRuntime();
    const fenwick = userIdOf(FENWICK.uuid);
    for (const path of [`/v1/security/users/${fenwick}`, `/v1/security/users/${fenwick}/credentials`]) {
      const res = await rt.call('GET', path);
      expect(res.status).toBe(404);
      expect((await json(res)).error_message).toBe(`record ${fenwick} does not exist`);
    }
    const bad = await rt.call('GET', '/v1/security/users/banana');
    expect(bad.status).toBe(400);
    expect((await json(bad)).error_message).toBe('user_id is not a valid uuid');
    expect((await rt.call('POST', '/v1/security/users', {})).status).toBe(405);
  });

  it('needs credentials with --auth on; with --auth off lists the default organisation', async () => {
    rt = await testRuntime();
    expect((await rt.app.request('/v1/security/users')).status).toBe(401);
    await rt.close();
    rt = await testRuntime({ auth: 'off', seedAccounts: false });
    const res = await rt.app.request('/v1/security/users');
    expect(res.status).toBe(200);
    expect((await json(res)).data.map((u: any) => u.organisation_id)).toEqual([NORTHWIND.organisation_id]);
  });
});
