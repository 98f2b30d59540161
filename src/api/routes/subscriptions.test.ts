import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { schemaValidator } from '../schemas/index.ts';

const ID = '6f0d7d4e-2c1b-4d5a-9b8e-1a2b3c4d5e6f';
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const body = (attributes: Record<string, unknown> = {}, id = ID, organisation_id = NORTHWIND.organisation_id) => ({
  data: {
    id,
    organisation_id,
    type: 'subscriptions',
    attributes: {
      event_type: 'created',
      record_type: 'accounts',
      callback_transport: 'http',
      callback_uri: 'http://127.0.0.1:9/hooks',
      ...attributes,
    },
  },
});

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;

describe('subscriptions', () => {
  it('creates at version 0, never echoes the secret, and matches the schema', async () => {
    const res = await rt.call(
      'POST',
      '/v1/notification/subscriptions',
      body({ secret: SECRET, user_defined_data: [{ key: 'team', value: 'payments' }] }),
    );
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain(SECRET.slice(6, 20));
    const out = JSON.parse(text);
    expect(schemaValidator('subscription-single')(out)).toBe(true);
    expect(out.data).toMatchObject({ id: ID, version: 0, attributes: { deactivated: false, has_secret: true } });
    expect(out.data.attributes.secret).toBeUndefined();
    expect(out.links.self).toBe(`/v1/notification/subscriptions/${ID}`);
    expect(rt.sim.subscriptions.secretOf(ID)).toBe(SECRET);
  });

  it.each([
    [{ event_type: 'changed' }, 'event_type in body should be one of [created updated deleted]'],
    [{ record_type: 'payment admissions' }, "record_type in body should match '^[A-Za-z_-]*$'"],
    [
      { callback_transport: 'smtp' },
      'callback_transport in body should be one of [http queue http_aws_private http_gcp_private http_azure_private]',
    ],
    [{ callback_uri: 'ftp://example.com/x' }, 'callback_uri in body must use http or https'],
    [{ callback_uri: 'https://example.com/x#frag' }, "callback_uri in body should match '^[A-Za-z0-9 .,@:&?=/_-]*$'"],
    [{ filter: { 'attributes.bank_id': '400300' } }, 'filter in body must be of type string'],
    [{ filter: 'attributes.bank_id' }, 'filter in body: "attributes.bank_id" is no condition'],
    [
      { user_defined_data: [{ key: 'k', value: 'v'.repeat(46) }] },
      'user_defined_data.0.value in body should be at most 45 chars long',
    ],
    [{ callback_uri: undefined }, 'callback_transport and callback_uri in body go together'],
    [{ callback_uri: undefined, callback_transport: undefined }, 'callback_uris in body is required'],
    [{ callback_uri: 'http://exa mple' }, 'callback_uri in body must be an absolute URL'],
    [{ callback_transport: 'queue', callback_uri: 'http://localhost:9324/hooks' }, 'must be an SQS queue URL'],
    [
      { user_defined_data: Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, value: 'v' })) },
      'user_defined_data in body should have at most 5 items',
    ],
    [
      {
        user_defined_data: [
          { key: 'a', value: '1' },
          { key: 'a', value: '2' },
        ],
      },
      'user_defined_data in body should not repeat a key',
    ],
    [{ secret: 'plain' }, 'secret in body must be "whsec_" followed by base64'],
    [{ secret: 'whsec_c2hvcnQ=' }, 'secret in body must encode 24 to 64 bytes'],
    [{ has_secret: true }, 'has_secret'],
  ])('400s %j', async (attrs, message) => {
    const res = await rt.call('POST', '/v1/notification/subscriptions', body(attrs));
    expect(res.status).toBe(400);
    expect((await json(res)).error_message).toContain(message);
  });

  it('accepts a queue URL for the queue transport and any registered record type', async () => {
    const res = await rt.call(
      'POST',
      '/v1/notification/subscriptions',
      body({
        callback_transport: 'queue',
        callback_uri: 'http://localhost:9324/000000000000/scheme-events',
        record_type: 'subscriptions',
      }),
    );
    expect(res.status).toBe(201);
  });

  it('409s a duplicate, 404s another organisation, 403s a create for another organisation', async () => {
    await rt.call('POST', '/v1/notification/subscriptions', body());
    expect((await rt.call('POST', '/v1/notification/subscriptions', body())).status).toBe(409);
    expect((await rt.call('GET', `/v1/notification/subscriptions/${ID}`, undefined, { client: HARBOUR })).status).toBe(
      404,
    );
    expect(
      (await rt.call('POST', '/v1/notification/subscriptions', body({}, crypto.randomUUID(), HARBOUR.organisation_id)))
        .status,
    ).toBe(403);
    expect((await rt.call('GET', '/v1/notification/subscriptions/not-a-uuid')).status).toBe(400);
  });

  it('lists with filters and 400s an unknown filter', async () => {
    await rt.call('POST', '/v1/notification/subscriptions', body());
    await rt.call('POST', '/v1/notification/subscriptions', body({ event_type: 'updated' }, crypto.randomUUID()));
    const list = await json(
      await rt.call('GET', '/v1/notification/subscriptions?filter[event_type]=updated&filter[deactivated]=false'),
    );
    expect(schemaValidator('subscription-list')(list)).toBe(true);
    expect(list.data).toHaveLength(1);
    expect(list.data[0].attributes.event_type).toBe('updated');
    expect((await rt.call('GET', '/v1/notification/subscriptions?filter[colour]=red')).status).toBe(400);
  });

  it('patches at the version (re-validating the whole), removes the secret with null, deletes with ?version=', async () => {
    await rt.call('POST', '/v1/notification/subscriptions', body({ secret: SECRET }));
    expect(
      (
        await rt.call('PATCH', `/v1/notification/subscriptions/${ID}`, {
          data: { version: 4, attributes: { deactivated: true } },
        })
      ).status,
    ).toBe(409);
    const bad = await rt.call('PATCH', `/v1/notification/subscriptions/${ID}`, {
      data: { version: 0, attributes: { callback_transport: 'queue' } },
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error_message).toContain('SQS queue URL');
    const ok = await rt.call('PATCH', `/v1/notification/subscriptions/${ID}`, {
      data: { version: 0, attributes: { deactivated: true, secret: null } },
    });
    expect(ok.status).toBe(200);
    expect((await json(ok)).data).toMatchObject({ version: 1, attributes: { deactivated: true, has_secret: false } });
    expect(rt.sim.subscriptions.secretOf(ID)).toBeUndefined();
    expect((await rt.call('DELETE', `/v1/notification/subscriptions/${ID}?version=0`)).status).toBe(409);
    expect((await rt.call('DELETE', `/v1/notification/subscriptions/${ID}?version=1`)).status).toBe(204);
    expect((await rt.call('GET', `/v1/notification/subscriptions/${ID}`)).status).toBe(404);
  });

  it('ignores an unknown attribute (and __proto__) on create and on PATCH, as Form3 does', async () => {
    const raw = JSON.stringify(body()).replace('"callback_uri"', '"__proto__": {"admin": true}, "callback_uri"');
    const res = await rt.app.request('/v1/notification/subscriptions', {
      method: 'POST',
      headers: { authorization: `Bearer ${await rt.token()}`, 'content-type': 'application/json' },
      body: raw,
    });
    expect(res.status).toBe(201);
    const stored = rt.sim.subscriptions.find(ID)!;
    expect(Object.getPrototypeOf(stored.attributes)).toBe(Object.prototype);
    expect(Object.hasOwn(stored.attributes, '__proto__')).toBe(false);
    const patch = await rt.call('PATCH', `/v1/notification/subscriptions/${ID}`, {
      data: { version: 0, attributes: { colour: 'red' } },
    });
    expect(patch.status).toBe(200);
    expect((await json(patch)).data.attributes.colour).toBeUndefined();
  });

  it('with --strict, 400s an unknown attribute (and __proto__) on create and on PATCH, storing nothing', async () => {
    const strict = await testRuntime({ strict: true });
    try {
      const raw = JSON.stringify(body()).replace('"callback_uri"', '"__proto__": {"admin": true}, "callback_uri"');
      const res = await strict.app.request('/v1/notification/subscriptions', {
        method: 'POST',
        headers: { authorization: `Bearer ${await strict.token()}`, 'content-type': 'application/json' },
        body: raw,
      });
      expect(res.status).toBe(400);
      expect((await json(res)).error_message).toContain('__proto__ in body is not allowed');
      expect(strict.sim.subscriptions.find(ID)).toBeUndefined();
      await strict.call('POST', '/v1/notification/subscriptions', body());
      const patch = await strict.call('PATCH', `/v1/notification/subscriptions/${ID}`, {
        data: { version: 0, attributes: { colour: 'red' } },
      });
      expect(patch.status).toBe(400);
      expect((await json(patch)).error_message).toContain('colour in body is not allowed');
    } finally {
      await strict.close();
    }
  });

  it('PATCH 400s a data.id other than the path and 403s another organisation_id, like accounts', async () => {
    await rt.call('POST', '/v1/notification/subscriptions', body());
    const other = await rt.call('PATCH', `/v1/notification/subscriptions/${ID}`, {
      data: { id: crypto.randomUUID(), version: 0, attributes: { deactivated: true } },
    });
    expect(other.status).toBe(400);
    expect((await json(other)).error_message).toContain('id in body must equal the id in the path');
    const foreign = await rt.call('PATCH', `/v1/notification/subscriptions/${ID}`, {
      data: { id: ID, organisation_id: HARBOUR.organisation_id, version: 0, attributes: { deactivated: true } },
    });
    expect(foreign.status).toBe(403);
    expect((await json(foreign)).error_message).toContain('is not the organisation of this client');
    expect(rt.sim.subscriptions.get(ID).version).toBe(0);
    const same = await rt.call('PATCH', `/v1/notification/subscriptions/${ID}`, {
      data: {
        id: ID.toUpperCase(),
        organisation_id: NORTHWIND.organisation_id,
        version: 0,
        attributes: { deactivated: true },
      },
    });
    expect(same.status).toBe(200);
  });

  it('answers 405 for a wrong method and 404 errors of an unknown subscription', async () => {
    expect((await rt.call('PUT', '/v1/notification/subscriptions')).status).toBe(405);
    expect((await rt.call('GET', `/v1/notification/subscriptions/${ID}/errors`)).status).toBe(404);
  });
});

describe('callbacks at the simulator itself', () => {
  it('are refused once the simulator knows its address, on create and on PATCH', async () => {
    rt.sim.subscriptions.addSelfAddress('http://0.0.0.0:8080');
    for (const uri of [
      'http://127.0.0.1:8080/v1/simulator/deliveries/x/redeliver',
      'http://localhost:8080/anything',
      'http://0.0.0.0:8080/v1/x',
    ]) {
      const res = await rt.call(
        'POST',
        '/v1/notification/subscriptions',
        body({ callback_uri: uri }, crypto.randomUUID()),
      );
      expect(res.status, uri).toBe(400);
      expect((await json(res)).error_message).toContain(
        'callback_uri in body must not point at the simulator itself (0.0.0.0:8080)',
      );
    }
    expect(
      (await rt.call('POST', '/v1/notification/subscriptions', body({ callback_uri: 'http://127.0.0.1:8081/v1/x' })))
        .status,
    ).toBe(201);
    const patch = await rt.call('PATCH', `/v1/notification/subscriptions/${ID}`, {
      data: { version: 0, attributes: { callback_uri: 'http://localhost:8080/v1/x' } },
    });
    expect(patch.status).toBe(400);
    expect((await json(patch)).error_message).toContain('callback_uri in body must not point at the simulator itself');
  });

  it('do not block deactivating a subscription stored with one before they were refused', async () => {
    await rt.call(
      'POST',
      '/v1/notification/subscriptions',
      body({ callback_uri: 'http://127.0.0.1:8080/v1/simulator/deliveries/x/redeliver' }),
    );
    rt.sim.subscriptions.addSelfAddress('http://127.0.0.1:8080');
    const res = await rt.call('PATCH', `/v1/notification/subscriptions/${ID}`, {
      data: { version: 0, attributes: { deactivated: true } },
    });
    expect(res.status).toBe(200);
    expect(
      (
        await rt.call(
          'POST',
          '/v1/notification/subscriptions',
          body({ callback_uri: 'http://127.0.0.1.example.com:8080/hooks' }, crypto.randomUUID()),
        )
      ).status,
    ).toBe(201);
  });

  it('are refused under the base URL of msw handlers (a host name and a path prefix), and not beside it', async () => {
    rt.sim.subscriptions.addSelfAddress('http://gateway.test/payments');
    const refused = await rt.call(
      'POST',
      '/v1/notification/subscriptions',
      body({ callback_uri: 'http://gateway.test/payments/v1/simulator/deliveries/x/redeliver' }, crypto.randomUUID()),
    );
    expect(refused.status).toBe(400);
    expect(
      (await rt.call('POST', '/v1/notification/subscriptions', body({ callback_uri: 'http://gateway.test/hooks' })))
        .status,
    ).toBe(201);
  });
});
