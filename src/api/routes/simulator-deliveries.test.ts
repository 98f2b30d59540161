import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestReceiver } from '../../../test/support/webhook-receiver.ts';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { schemaValidator } from '../schemas/index.ts';

let rt: TestRuntime;
let receiver: TestReceiver;
beforeEach(async () => {
  receiver = new TestReceiver();
  await receiver.up();
  rt = await testRuntime();
  await rt.call('POST', '/v1/notification/subscriptions', {
    data: {
      id: crypto.randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
      type: 'subscriptions',
      attributes: {
        event_type: 'created',
        record_type: 'accounts',
        callback_transport: 'http',
        callback_uri: receiver.url,
      },
    },
  });
  await rt.call('POST', '/v1/organisation/accounts', {
    data: {
      id: crypto.randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
      type: 'accounts',
      attributes: {
        country: 'GB',
        bank_id: '400300',
        bank_id_code: 'GBDSC',
        bic: 'NWBKGB22',
        account_number: '41426819',
        name: ['Sam Holder'],
      },
    },
  });
  receiver.script.push(503);
  await rt.delivery.runDue();
});
afterEach(async () => {
  await rt.close();
  await receiver.down();
});
const json = async (res: Response) => (await res.json()) as any;

describe('/v1/simulator/deliveries', () => {
  it('shows an outbox entry by notification id or by attempt id', async () => {
    const list = await json(await rt.call('GET', '/v1/simulator/deliveries?filter[error_category]=http_error'));
    expect(list.data).toHaveLength(1);
    const attempt = list.data[0];
    for (const id of [attempt.attributes.notification_id, attempt.id]) {
      const res = await rt.call('GET', `/v1/simulator/deliveries/${id}`);
      expect(res.status).toBe(200);
      const entry = await json(res);
      expect(schemaValidator('notification-delivery')(entry)).toBe(true);
      expect(entry.data).toMatchObject({
        id: attempt.attributes.notification_id,
        attributes: { status: 'pending', attempts: 1 },
      });
      // The second attempt is due 5 s ± 20% (jitter) after the first, in wall time.
      const wait = Date.parse(entry.data.attributes.next_attempt_at) - Date.parse('2026-12-21T09:00:00.000Z');
      expect(wait).toBeGreaterThanOrEqual(4000);
      expect(wait).toBeLessThanOrEqual(6000);
    }
  });

  it('lists the pending deliveries, soonest first, to their organisation only', async () => {
    const pending = await json(await rt.call('GET', '/v1/simulator/deliveries/pending'));
    expect(schemaValidator('notification-delivery-list')(pending)).toBe(true);
    expect(pending.data).toHaveLength(1);
    expect(pending.data[0].attributes).toMatchObject({ status: 'pending', attempts: 1 });
    const other = await json(await rt.call('GET', '/v1/simulator/deliveries/pending', undefined, { client: HARBOUR }));
    expect(other.data).toEqual([]);
    expect((await rt.call('POST', '/v1/simulator/deliveries/pending')).status).toBe(405);
  });

  it("keeps each organisation's deliveries to itself and 400s an unknown filter or id", async () => {
    expect(
      (await json(await rt.call('GET', '/v1/simulator/deliveries', undefined, { client: HARBOUR }))).data,
    ).toHaveLength(0);
    const res = await rt.call('GET', '/v1/simulator/deliveries?filter[colour]=red');
    expect(res.status).toBe(400);
    expect((await json(res)).error_message).toContain('filter[notification_id]');
    expect((await rt.call('GET', '/v1/simulator/deliveries/nope')).status).toBe(400);
    expect((await rt.call('GET', `/v1/simulator/deliveries/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await rt.call('DELETE', '/v1/simulator/deliveries')).status).toBe(405);
  });
});
