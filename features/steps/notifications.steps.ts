// Subscriptions and the notifications that reach the world's webhook receiver or an SQS queue of
// the harness (support/queue.ts: one new queue per subscription). Other flows reuse
// these: subscribe to "created" events of "report_admissions", then wait for the notification and
// use {{notification.data.data.id}} (every field of the last notification is remembered).
//
// Each subscription calls back to its own path, `{{webhook_url}}/hooks/<subscription id>`, and a
// scenario only accepts notifications on the paths of its own subscriptions (those made by these
// steps, and {{subscription_id}}), so subscriptions left by other scenarios on a long-running
// simulator cannot answer for it. Subscriptions made by these steps are deleted after the scenario.
import assert from 'node:assert/strict';
import { After, Given, Then, When } from '@cucumber/cucumber';
import { verifyForm3Notification, verifyWebhook } from '../../src/index.ts';
import {
  awaitNotification,
  awaitQueued,
  lastNotification,
  lastWebhook,
  stateOf,
  subscribe,
} from '../support/notifications.ts';
import { type QueueMessage, queues } from '../support/queue.ts';
import { assertMatchesSchema } from '../support/schema.ts';
import { pick, type SimWorld } from '../support/world.ts';

After(async function (this: SimWorld) {
  const subs = stateOf(this).subscriptions;
  const named = this.vars.subscription_id;
  if (named && !subs.has(named)) subs.set(named, this.client ?? 'default');
  for (const [id, client] of subs) {
    this.client = client;
    const res = await this.send('GET', `/v1/notification/subscriptions/${id}`);
    if (res.status === 404) continue;
    assert.equal(res.status, 200, `cleaning up subscription ${id}: ${res.status} ${res.text}`);
    const version = (res.json as { data: { version: number } }).data.version;
    const del = await this.send('DELETE', `/v1/notification/subscriptions/${id}?version=${version}`);
    assert.equal(del.status, 204, `cleaning up subscription ${id}: ${del.status} ${del.text}`);
  }
});

Given(
  'I subscribe to {string} events of {string}',
  async function (this: SimWorld, eventType: string, recordType: string) {
    await subscribe(this, eventType, recordType);
  },
);

Given(
  'I subscribe to {string} events of {string} with secret {string}',
  async function (this: SimWorld, eventType: string, recordType: string, secret: string) {
    await subscribe(this, eventType, recordType, { secret: this.interpolate(secret) });
  },
);

Given(
  'I subscribe to {string} events of {string} on a new SQS queue',
  async function (this: SimWorld, eventType: string, recordType: string) {
    this.vars.queue_url = await queues.create(false);
    await subscribe(this, eventType, recordType, {}, this.vars.queue_url);
  },
);

Given(
  'I subscribe to {string} events of {string} on a new FIFO SQS queue',
  async function (this: SimWorld, eventType: string, recordType: string) {
    this.vars.queue_url = await queues.create(true);
    await subscribe(this, eventType, recordType, {}, this.vars.queue_url);
  },
);

Given(
  'I subscribe to {string} events of {string} on an SQS queue that does not exist',
  async function (this: SimWorld, eventType: string, recordType: string) {
    this.vars.queue_url = await queues.missing();
    await subscribe(this, eventType, recordType, {}, this.vars.queue_url);
  },
);

Given('the simulator keeps at most {int} finished deliveries', function (this: SimWorld, maxFinished: number) {
  const outbox = this.runtime.sim.outbox;
  outbox.retention = { ...outbox.retention, maxFinished };
});

Given('the webhook receiver answers {int}', function (this: SimWorld, status: number) {
  this.receiver.status = status;
});

Then(
  'a {string} notification for {string} arrives on the queue',
  async function (this: SimWorld, eventType: string, recordType: string) {
    await awaitQueued(this, eventType, recordType);
  },
);

Then(
  'a {string} notification for {string} with {string} equal to {string} arrives on the queue',
  async function (this: SimWorld, eventType: string, recordType: string, field: string, value: string) {
    await awaitQueued(this, eventType, recordType, field, value);
  },
);

Then('the queue message attribute {string} equals {string}', function (this: SimWorld, name: string, expected: string) {
  const last = lastNotification(this);
  assert.equal(last.kind, 'queue', 'the last notification came by webhook, not from a queue');
  const m = (last as { message: QueueMessage }).message;
  const got = m.attributes[name] ?? m.system[name];
  assert.equal(
    got,
    this.interpolate(expected),
    `queue message attribute ${name} (attributes: ${JSON.stringify({ ...m.attributes, ...m.system })})`,
  );
});

Then(
  'a {string} notification for {string} arrives',
  async function (this: SimWorld, eventType: string, recordType: string) {
    await awaitNotification(this, eventType, recordType);
  },
);

Then(
  'a {string} notification for {string} with {string} equal to {string} arrives',
  async function (this: SimWorld, eventType: string, recordType: string, field: string, value: string) {
    await awaitNotification(this, eventType, recordType, field, value);
  },
);

Then('the notification matches the {string} schema', function (this: SimWorld, schema: string) {
  assertMatchesSchema(schema, lastNotification(this).json);
});

Then('the notification field {string} equals {string}', function (this: SimWorld, path: string, expected: string) {
  const got = pick(lastNotification(this).json, path);
  assert.equal(
    typeof got === 'string' ? got : JSON.stringify(got),
    this.interpolate(expected),
    `${path} of the notification`,
  );
});

Then('the notification was sent as JSON by scheme-sim', function (this: SimWorld) {
  const h = lastWebhook(this).headers;
  assert.equal(h['content-type'], 'application/json');
  assert.equal(h['user-agent'], 'scheme-sim');
});

Then('the notification signature is valid for secret {string}', function (this: SimWorld, secret: string) {
  const r = lastWebhook(this);
  const header = (name: string) => {
    const v = r.headers[name];
    assert.ok(typeof v === 'string' && v !== '', `header ${name} is missing`);
    return v;
  };
  assert.equal(header('webhook-id'), (r.json as { id: string }).id, 'webhook-id is the notification id');
  header('webhook-timestamp');
  const ok = verifyWebhook(this.interpolate(secret), r.headers, r.body);
  assert.ok(ok, `webhook-signature ${header('webhook-signature')} does not verify`);
});

// The notification's signature, checked with the package's own verifier (verifyForm3Notification):
// Form3's documented scheme (draft "Signing HTTP Requests", RSA-SHA256, the key fetched from the
// target's signing_keys as a receiver fetches it), with the header set the simulator chose, which
// Form3 does not publish (a Signature header over (request-target), date and digest;
// docs/notifications.md). Against a simulator it checks the simulator with its own verifier; against
// staging, that Form3's notifications carry what that verifier needs.
Then("the notification's signature verifies with scheme-sim's verifier", async function (this: SimWorld) {
  const r = lastWebhook(this);
  const fetchKey = async (keyId: string) => {
    const res = await this.send('GET', `/v1/platform/security/signing_keys/${keyId}`);
    assert.equal(res.status, 200, `fetching signing key ${keyId}: ${res.status} ${res.text}`);
    assertMatchesSchema('signing-key-single', res.json);
    return (res.json as { data: { attributes: { public_key: string } } }).data.attributes.public_key;
  };
  await verifyForm3Notification({ method: r.method, url: r.path, headers: r.headers, body: r.body }, fetchKey);
  // A one-byte change is refused.
  await assert.rejects(
    verifyForm3Notification({ method: r.method, url: r.path, headers: r.headers, body: `${r.body} ` }, fetchKey),
    /Digest does not match/,
  );
});

When(
  'I wait until {string} has field {string} equal to {string}',
  async function (this: SimWorld, path: string, field: string, expected: string) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await this.send('GET', path);
      const got = pick(res.json, field);
      if ((typeof got === 'string' ? got : JSON.stringify(got)) === this.interpolate(expected)) return;
      if (Date.now() > deadline) throw new Error(`${field} of ${path} is still ${JSON.stringify(got)} after 10 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  },
);
