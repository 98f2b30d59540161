import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { After, Given, Then, When } from '@cucumber/cucumber';
import { verifyWebhook } from '../../src/index.ts';
import { type QueueMessage, queues } from '../support/queue.ts';
import type { ReceivedRequest } from '../support/receiver.ts';
import { assertMatchesSchema } from '../support/schema.ts';
import { pick, type SimWorld } from '../support/world.ts';

// Subscriptions and the notifications that reach the world's webhook receiver or an SQS queue of
// the harness (support/queue.ts: one new queue per subscription). Other flows reuse
// these: subscribe to "created" events of "report_admissions", then wait for the notification and
// use {{notification.data.data.id}} (every field of the last notification is remembered).
//
// Each subscription calls back to its own path, `{{webhook_url}}/hooks/<subscription id>`, and a
// scenario only accepts notifications on the paths of its own subscriptions (those made by these
// steps, and {{subscription_id}}), so subscriptions left by other scenarios on a long-running
// simulator cannot answer for it. Subscriptions made by these steps are deleted after the scenario.

/** A notification as it arrived: a webhook request, or a message read off a queue. */
type Arrived =
  | { kind: 'webhook'; request: ReceivedRequest; json: unknown }
  | { kind: 'queue'; message: QueueMessage; json: unknown };

interface NotificationState {
  consumed: Set<ReceivedRequest>;
  /** Subscription id → the client that made it (for the clean-up). */
  subscriptions: Map<string, string>;
  last?: Arrived;
}
const state = new WeakMap<SimWorld, NotificationState>();
function stateOf(world: SimWorld): NotificationState {
  let s = state.get(world);
  if (!s) state.set(world, (s = { consumed: new Set(), subscriptions: new Map() }));
  return s;
}

/** Remembers every leaf of `value` as `<prefix>.<dotted path>` (and the whole as `<prefix>`). */
function rememberAll(world: SimWorld, prefix: string, value: unknown): void {
  world.vars[prefix] = typeof value === 'string' ? value : JSON.stringify(value);
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) rememberAll(world, `${prefix}.${k}`, v);
  }
}

/** Subscribes to the world's webhook receiver, or, given a queue URL, to that queue. */
async function subscribe(
  world: SimWorld,
  eventType: string,
  recordType: string,
  extra: Record<string, unknown> = {},
  queueUrl?: string,
): Promise<void> {
  const id = randomUUID();
  const callback = queueUrl
    ? { callback_transport: 'queue', callback_uri: queueUrl }
    : { callback_transport: 'http', callback_uri: `${world.vars.webhook_url}/hooks/${id}` };
  const body = {
    data: {
      id,
      organisation_id: world.vars.organisation_id,
      type: 'subscriptions',
      attributes: { event_type: eventType, record_type: recordType, ...callback, ...extra },
    },
  };
  const res = await world.send('POST', '/v1/notification/subscriptions', { body: JSON.stringify(body) });
  assert.equal(res.status, 201, `subscribing failed: ${res.status} ${res.text}`);
  world.vars.subscription_id = id;
  stateOf(world).subscriptions.set(id, world.client ?? 'default');
}

/** True when the request came to the callback path of one of the scenario's subscriptions. */
function ours(world: SimWorld, r: ReceivedRequest): boolean {
  const m = /^\/hooks\/([0-9a-f-]{36})$/.exec(r.path);
  return !!m && (stateOf(world).subscriptions.has(m[1]!) || world.vars.subscription_id === m[1]);
}

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

/** A test of a notification's JSON: its kind, the world's organisation, and `field` = `value` when given. */
function wanted(
  world: SimWorld,
  eventType: string,
  recordType: string,
  field?: string,
  value?: string,
): (json: unknown) => boolean {
  const want = value === undefined ? undefined : world.interpolate(value);
  return (json) => {
    const n = json as Record<string, unknown> | undefined;
    if (
      !n ||
      n.event_type !== eventType ||
      n.record_type !== recordType ||
      n.organisation_id !== world.vars.organisation_id
    )
      return false;
    if (field === undefined) return true;
    const got = pick(n, field);
    return (typeof got === 'string' ? got : JSON.stringify(got)) === want;
  };
}

/**
 * In process the wall clock is a manual one, so a delivery whose first attempt failed would wait
 * for a retry that never comes due: while a scenario waits for a webhook, the wall is moved to the
 * next retry and the worker asked to run it, as real time would. Other targets keep real time.
 */
function bringRetriesDue(world: SimWorld): void {
  const rt = world.target.runtime;
  if (!rt) return;
  const next = rt.sim.outbox.nextDueMs();
  if (next === undefined) return;
  if (next > rt.wall.now().getTime()) rt.wall.set(new Date(next));
  rt.delivery.runDue().catch(() => undefined);
}

async function awaitNotification(
  world: SimWorld,
  eventType: string,
  recordType: string,
  field?: string,
  value?: string,
): Promise<void> {
  const s = stateOf(world);
  const match = wanted(world, eventType, recordType, field, value);
  const hit = await world.receiver.waitFor(
    (r) => !s.consumed.has(r) && ours(world, r) && match(r.json),
    10_000,
    () => bringRetriesDue(world),
  );
  s.consumed.add(hit);
  s.last = { kind: 'webhook', request: hit, json: hit.json };
  rememberAll(world, 'notification', hit.json);
}

/** Reads the scenario's queue ({{queue_url}}) until a notification of the kind arrives. */
async function awaitQueued(
  world: SimWorld,
  eventType: string,
  recordType: string,
  field?: string,
  value?: string,
): Promise<void> {
  const queueUrl = world.vars.queue_url;
  if (!queueUrl) throw new Error('no queue yet: subscribe "on a new SQS queue" first');
  const match = wanted(world, eventType, recordType, field, value);
  const message = await queues.take(queueUrl, (m) => match(m.json));
  stateOf(world).last = { kind: 'queue', message, json: message.json };
  rememberAll(world, 'notification', message.json);
}

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

function lastNotification(world: SimWorld): Arrived {
  const last = stateOf(world).last;
  if (!last) throw new Error('no notification has arrived yet');
  return last;
}

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

/** The last notification's webhook request (header steps mean nothing for a queue message). */
function lastWebhook(world: SimWorld): ReceivedRequest {
  const last = lastNotification(world);
  if (last.kind !== 'webhook') throw new Error('the last notification was read off a queue: it has no HTTP headers');
  return last.request;
}

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
