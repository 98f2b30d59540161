import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAccount } from '../../../test/support/testing.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { schemaValidator } from '../schemas/index.ts';

// Subscriptions as Form3's model has them, with bodies exactly as Form3's Go SDK serialises them
// (go-form3 models/subscription_attributes.go: callback_uris without omitempty, so null when not
// set; no type; filter a string; user_id read-only).

const BASE = '/v1/notification/subscriptions';
let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;
const sdkCreate = (attributes: Record<string, unknown>, id = crypto.randomUUID()) => ({
  data: {
    id,
    organisation_id: NORTHWIND.organisation_id,
    attributes: { event_type: 'created', record_type: 'accounts', callback_uris: null, ...attributes },
  },
});

describe("a subscription body as Form3's SDK sends it", () => {
  it('is accepted: the deprecated pair with callback_uris null, a filter string, an echoed user_id', async () => {
    const res = await rt.call(
      'POST',
      BASE,
      sdkCreate({
        callback_transport: 'http',
        callback_uri: 'http://127.0.0.1:9/hooks',
        filter: 'attributes.bank_id=400300',
        user_id: '11111111-2222-4333-8444-555555555555',
      }),
    );
    const out = await json(res);
    expect(res.status, JSON.stringify(out)).toBe(201);
    expect(schemaValidator('subscription-single')(out)).toBe(true);
    // user_id is read-only: the creating client's, whatever was sent.
    expect(out.data.attributes.user_id).toBe(NORTHWIND.uuid);
    expect(out.data.attributes.filter).toBe('attributes.bank_id=400300');
  });

  it('takes callback_uris, in each of Form3’s transports, and its update body leaves them as they are', async () => {
    const id = crypto.randomUUID();
    const callbacks = [
      { callback_transport: 'http', callback_uri: 'http://127.0.0.1:9/a' },
      { callback_transport: 'queue', callback_uri: 'http://127.0.0.1:9324/000000000000/events' },
      { callback_transport: 'http_aws_private', callback_uri: 'http://127.0.0.1:9/private' },
    ];
    const created = await rt.call('POST', BASE, sdkCreate({ callback_uris: callbacks }, id));
    expect(created.status, JSON.stringify(await created.clone().json())).toBe(201);
    const update = await rt.call('PATCH', `${BASE}/${id}`, {
      data: {
        id,
        organisation_id: NORTHWIND.organisation_id,
        version: 0,
        attributes: { callback_uris: null, deactivated: true, user_id: NORTHWIND.uuid },
      },
    });
    const out = await json(update);
    expect(update.status, JSON.stringify(out)).toBe(200);
    expect(out.data.attributes).toMatchObject({ callback_uris: callbacks, deactivated: true, user_id: NORTHWIND.uuid });
  });

  it('refuses a subscription with nowhere to deliver, naming both ways to say where', async () => {
    const res = await rt.call('POST', BASE, sdkCreate({}));
    expect(res.status).toBe(400);
    expect((await json(res)).error_message).toContain(
      'callback_uris in body is required (or the deprecated callback_transport and callback_uri together)',
    );
  });
});

describe('delivery to each of callback_uris', () => {
  it('stores one outbox entry per callback, carrying the same notification', async () => {
    const sub = await rt.call(
      'POST',
      BASE,
      sdkCreate({
        callback_uris: [
          { callback_transport: 'http', callback_uri: 'http://127.0.0.1:9/a' },
          { callback_transport: 'queue', callback_uri: 'http://127.0.0.1:9324/000000000000/events' },
        ],
      }),
    );
    expect(sub.status).toBe(201);
    await openAccount(rt);
    const entries = rt.sim.outbox.pending();
    expect(entries.map((e) => e.callback?.callback_transport).sort()).toEqual(['http', 'queue']);
    expect(new Set(entries.map((e) => e.notification.id)).size).toBe(1);
    expect(new Set(entries.map((e) => e.id)).size).toBe(2);
  });
});

describe("the list filters of Form3's swagger", () => {
  it('callback_uri_search_term, notification_filter, callback_transport (any callback) and organisation_id', async () => {
    await rt.call('POST', BASE, sdkCreate({ callback_transport: 'http', callback_uri: 'http://127.0.0.1:9/alpha' }));
    await rt.call(
      'POST',
      BASE,
      sdkCreate({
        callback_uris: [{ callback_transport: 'queue', callback_uri: 'http://127.0.0.1:9324/000000000000/beta' }],
        filter: 'attributes.country=GB',
      }),
    );
    const count = async (q: string) => (await json(await rt.call('GET', `${BASE}?${q}`))).data.length;
    expect(await count('filter[callback_uri_search_term]=alpha')).toBe(1);
    expect(await count('filter[callback_uri_search_term]=alpha,beta')).toBe(2);
    expect(await count('filter[notification_filter]=true')).toBe(1);
    expect(await count('filter[notification_filter]=false')).toBe(1);
    expect(await count('filter[callback_transport]=queue')).toBe(1);
    expect(await count(`filter[organisation_id]=${NORTHWIND.organisation_id}`)).toBe(2);
    expect(await count(`filter[organisation_id]=${HARBOUR.organisation_id}`)).toBe(0);
  });
});
