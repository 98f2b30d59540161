import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { opensslAccepts } from '../../test/support/openssl-verify.ts';
import { openAccount, subscribeToAccounts } from '../../test/support/testing.ts';
import { type Received, TestReceiver } from '../../test/support/webhook-receiver.ts';
import { schemaValidator } from '../api/schemas/index.ts';
import { verifyForm3Notification } from '../client/verify-form3-notification.ts';
import { systemClock } from '../clock/clock.ts';
import { type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { FAST_RETRY_SCHEDULE } from '../sim/notifications/retry-schedule.ts';

// Webhooks arrive signed as Form3 signs them; the key is fetched from the API as a receiver would,
// and a key rotated mid-stream leaves the earlier notifications verifiable.

let rt: TestRuntime;
let receiver: TestReceiver;
beforeEach(async () => {
  receiver = new TestReceiver();
  await receiver.up();
  rt = await testRuntime({ wall: systemClock, retrySchedule: FAST_RETRY_SCHEDULE, delivery: { timeoutMs: 5000 } });
  rt.start();
});
afterEach(async () => {
  await rt.close();
  await receiver.down();
});

const fetchKey = async (id: string) => {
  const res = await rt.call('GET', `/v1/platform/security/signing_keys/${id}`);
  const body = (await res.json()) as { data: { attributes: { public_key: string } } };
  expect(schemaValidator('signing-key-single')(body)).toBe(true);
  return body.data.attributes.public_key;
};
const verifyReceived = (r: Received) =>
  verifyForm3Notification({ method: 'POST', url: r.path, headers: r.headers, body: r.body }, fetchKey);

describe('webhooks signed as Form3 signs them', () => {
  it('arrive signed; the key comes from GET /v1/platform/security/signing_keys/{id}; a rotation keeps old ones verifiable', async () => {
    await subscribeToAccounts(rt, [['http', receiver.url]]);
    await openAccount(rt);
    await TestReceiver.until(() => receiver.delivered.length === 1, 'the deliveries');
    const first = await verifyReceived(receiver.delivered[0]!);
    // An independent verifier (openssl) accepts the webhook as it arrived, and refuses a changed byte.
    const arrived = receiver.delivered[0]!;
    const pem = await fetchKey(first.keyId);
    expect(opensslAccepts({ url: arrived.path, headers: arrived.headers, body: arrived.body }, pem)).toBe(true);
    expect(opensslAccepts({ url: arrived.path, headers: arrived.headers, body: `${arrived.body} ` }, pem)).toBe(false);

    rt.sim.notificationKeys.rotate();
    await openAccount(rt);
    await TestReceiver.until(() => receiver.delivered.length === 2, 'the deliveries');
    const second = await verifyReceived(receiver.delivered[1]!);
    expect(second.keyId).not.toBe(first.keyId);
    // The first notification still verifies: its key stays fetchable, now retired.
    await expect(verifyReceived(receiver.delivered[0]!)).resolves.toEqual(first);
    const list = (await (await rt.call('GET', '/v1/platform/security/signing_keys')).json()) as {
      data: Array<{ id: string; attributes: { status: string } }>;
    };
    expect(schemaValidator('signing-key-list')(list)).toBe(true);
    expect(list.data.map((k) => [k.id, k.attributes.status])).toEqual([
      [first.keyId, 'retired'],
      [second.keyId, 'active'],
    ]);

    const tampered = { ...receiver.delivered[1]!, body: receiver.delivered[1]!.body.replace('"created"', '"deleted"') };
    await expect(verifyReceived(tampered)).rejects.toThrow('the Digest does not match the body');
  });

  it('a key is 404 when unknown and 400 when no uuid', async () => {
    expect((await rt.call('GET', `/v1/platform/security/signing_keys/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await rt.call('GET', '/v1/platform/security/signing_keys/nope')).status).toBe(400);
    expect((await rt.app.request('/v1/platform/security/signing_keys')).status).toBe(401);
  });
});
