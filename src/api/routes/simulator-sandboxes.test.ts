import { afterEach, describe, expect, it } from 'vitest';
import { newSandbox } from '../../../test/support/sandbox-client.ts';
import { assertMatchesSchema } from '../../harness/assert-schema.ts';
import { HARBOUR, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

let rt: TestRuntime;
afterEach(() => rt?.close());

const json = async (res: Response) => (await res.json()) as any;
const fetchOf = (r: TestRuntime) => async (path: string, init?: RequestInit) => r.app.request(path, init);
const create = (attributes: Record<string, unknown>, headers: Record<string, string> = {}) =>
  rt.app.request('/v1/simulator/sandboxes', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ data: { type: 'sandboxes', attributes } }),
  });

describe('POST /v1/simulator/sandboxes', () => {
  it('creates a world with its own clients, clock and expiry, in the schema', async () => {
    rt = await testRuntime();
    const res = await rt.call('POST', '/v1/simulator/sandboxes', {
      data: {
        type: 'sandboxes',
        attributes: { clock: { mode: 'frozen', start: '2027-01-04T10:00:00Z' }, seed: 'none' },
      },
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    assertMatchesSchema('sandbox-single', body);
    const a = body.data.attributes;
    expect(a.clock).toMatchObject({ now: '2027-01-04T10:00:00.000Z', mode: 'frozen' });
    expect(a.expires_at).toBe('2026-12-22T09:00:00.000Z'); // 24 h of wall time
    expect(a.clients[0]).toMatchObject({ role: 'admin', organisation_id: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb' });
    expect(a.clients[0].client_secret).toEqual(expect.any(String));
    expect(a.clients[0].key_ids.length).toBeGreaterThan(0);
    expect(a.record_count).toBe(0); // seed none
    expect(body.links.self).toBe(`/v1/simulator/sandboxes/${body.data.id}`);
  });

  it("seeds the fixtures' accounts and payments by default, and takes an id of the caller's", async () => {
    rt = await testRuntime();
    const id = '0b0e5d2c-5f0e-4a8e-9a57-3f1a8d8a2b99';
    const res = await rt.call('POST', '/v1/simulator/sandboxes', { data: { id, type: 'sandboxes' } });
    expect(res.status).toBe(201);
    expect((await json(res)).data).toMatchObject({ id, attributes: { seed: 'fixtures', record_count: 92 } }); // 80 accounts, 6 payments and their admissions
    expect((await rt.call('POST', '/v1/simulator/sandboxes', { data: { id } })).status).toBe(409);
  });

  it('takes no body at all', async () => {
    rt = await testRuntime();
    const res = await rt.app.request('/v1/simulator/sandboxes', {
      method: 'POST',
      headers: { authorization: `Bearer ${await rt.token()}` },
    });
    expect(res.status).toBe(201);
  });

  it.each([
    ['a lifetime over 30 days', { lifetime_seconds: 31 * 86400 }, /lifetime_seconds/],
    [
      'an expiry past 30 days',
      { expires_at: '2027-02-01T00:00:00Z' },
      /expires_at in body must be at most 30 days ahead/,
    ],
    ['an expiry in the past', { expires_at: '2020-01-01T00:00:00Z' }, /expires_at in body must be in the future/],
    ['a seed of neither kind', { seed: 'banana' }, /seed in body should be one of \[fixtures none\]/],
    ['a clock mode of neither kind', { clock: { mode: 'sideways' } }, /clock\.mode in body should be one of/],
    ['a negative speed', { clock: { speed: -1 } }, /clock\.speed/],
    ['an unknown setting', { settings: { loud: true } }, /loud/],
    ['an unknown JWS profile', { settings: { jws_profile: '9.9' } }, /jws_profile/],
  ])('400s %s, naming the field', async (_name, attributes, message) => {
    rt = await testRuntime();
    const res = await create(attributes, { authorization: `Bearer ${await rt.token()}` });
    expect(res.status).toBe(400);
    const body = await json(res);
    assertMatchesSchema('error', body);
    expect(body.error_message).toMatch(message);
  });

  it('400s both expires_at and lifetime_seconds, and a body that is not JSON', async () => {
    rt = await testRuntime();
    const auth = { authorization: `Bearer ${await rt.token()}` };
    const both = await create({ expires_at: '2026-12-21T12:00:00Z', lifetime_seconds: 600 }, auth);
    expect(both.status).toBe(400);
    const bad = await rt.app.request('/v1/simulator/sandboxes', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"data":',
    });
    expect(bad.status).toBe(400);
  });

  it('is an admin act of the default sandbox: 401 without credentials, 403 for a member', async () => {
    rt = await testRuntime();
    expect((await create({})).status).toBe(401);
    const member = await create({}, { authorization: `Bearer ${await rt.token(HARBOUR)}` });
    expect(member.status).toBe(403);
    expect((await json(member)).error_message).toMatch(/admin client of the default sandbox/);
  });

  it("is anyone's with --sandboxes open, and with --auth off", async () => {
    rt = await testRuntime({ sandboxes: { creation: 'open' } });
    expect((await create({})).status).toBe(201);
    await rt.close();
    rt = await testRuntime({ auth: 'off' });
    expect((await create({})).status).toBe(201);
  });

  it('refuses past the live-sandbox limit, naming it', async () => {
    rt = await testRuntime({ sandboxes: { maxSandboxes: 2 } });
    const auth = { authorization: `Bearer ${await rt.token()}` };
    expect((await create({}, auth)).status).toBe(201);
    expect((await create({}, auth)).status).toBe(201);
    const third = await create({}, auth);
    expect(third.status).toBe(403);
    expect((await json(third)).error_message).toMatch(/limit of 2 live sandboxes is reached \(--max-sandboxes\)/);
  });

  it('refuses a create past the record quota, naming it, while reads and the clock work', async () => {
    rt = await testRuntime({ sandboxes: { recordQuota: 80 } });
    const s = await newSandbox(fetchOf(rt), {}, await rt.token());
    const res = await s.call('POST', '/v1/organisation/accounts', { data: { type: 'accounts', attributes: {} } });
    expect(res.status).toBe(403);
    expect((await json(res)).error_message).toMatch(/holds 80 records, its limit \(--sandbox-records\)/);
    expect((await s.call('GET', '/v1/organisation/accounts')).status).toBe(200);
    expect((await s.call('POST', '/v1/simulator/clock/advance', { working_days: 1 })).status).toBe(200);
  });
});

describe('GET and DELETE /v1/simulator/sandboxes', () => {
  it('lists every sandbox for the default admin, without secrets; a sandbox client sees its own', async () => {
    rt = await testRuntime();
    const admin = await rt.token();
    const a = await newSandbox(fetchOf(rt), {}, admin);
    const b = await newSandbox(fetchOf(rt), {}, admin);
    const all = await json(await rt.call('GET', '/v1/simulator/sandboxes'));
    assertMatchesSchema('sandbox-list', all);
    expect(all.data.map((s: any) => s.id).sort()).toEqual([a.id, b.id].sort());
    expect(JSON.stringify(all)).not.toContain('client_secret');
    const own = await json(await a.call('GET', '/v1/simulator/sandboxes'));
    expect(own.data.map((s: any) => s.id)).toEqual([a.id]);
    const one = await json(await a.call('GET', `/v1/simulator/sandboxes/${a.id}`));
    expect(one.data.attributes.clients[0].client_secret).toBe(a.admin.client_secret);
    expect((await rt.call('GET', '/v1/simulator/sandboxes/not-a-uuid')).status).toBe(400);
    expect((await rt.call('GET', `/v1/simulator/sandboxes/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await rt.call('GET', '/v1/simulator/sandboxes', undefined, { client: HARBOUR })).status).toBe(403);
  });

  it('deletes by the default admin or the sandbox admin, never by a member; its tokens stop working', async () => {
    rt = await testRuntime();
    const admin = await rt.token();
    const s = await newSandbox(fetchOf(rt), {}, admin);
    const { sandboxClient } = await import('../../../test/support/sandbox-client.ts');
    const member = await sandboxClient(fetchOf(rt), s.data, 1);
    expect((await member.call('DELETE', `/v1/simulator/sandboxes/${s.id}`)).status).toBe(403);
    expect((await s.call('DELETE', `/v1/simulator/sandboxes/${s.id}`)).status).toBe(204);
    const after = await s.call('GET', '/v1/organisation/accounts');
    expect(after.status).toBe(401);
    expect((await json(after)).error_message).toBe('the sandbox of this access token no longer exists');
    expect((await rt.app.request(`/sandboxes/${s.id}/health`)).status).toBe(404);
    expect((await rt.call('DELETE', `/v1/simulator/sandboxes/${s.id}`)).status).toBe(404);
  });

  it('deletes a sandbox once it expires (wall time)', async () => {
    rt = await testRuntime();
    const s = await newSandbox(fetchOf(rt), { lifetime_seconds: 600 }, await rt.token());
    rt.wall.advanceMs(599_000);
    expect((await s.call('GET', '/v1/simulator/clock')).status).toBe(200);
    rt.wall.advanceMs(1_000);
    expect((await s.call('GET', '/v1/simulator/clock')).status).toBe(401);
    expect((await rt.call('GET', `/v1/simulator/sandboxes/${s.id}`)).status).toBe(404);
    expect(await rt.sandboxes.sweep()).toBe(0);
    expect(rt.sandboxes.size).toBe(0);
  });
});
