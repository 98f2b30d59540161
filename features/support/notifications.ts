// The plumbing of the notification steps: each scenario's subscriptions, the notifications that
// reached it (webhook or queue), and waiting for one. Steps are in features/steps/notifications.steps.ts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { type QueueMessage, queues } from './queue.ts';
import type { ReceivedRequest } from './receiver.ts';
import { pick, type SimWorld } from './world.ts';

/** A notification as it arrived: a webhook request, or a message read off a queue. */
export type Arrived =
  | { kind: 'webhook'; request: ReceivedRequest; json: unknown }
  | { kind: 'queue'; message: QueueMessage; json: unknown };

interface NotificationState {
  consumed: Set<ReceivedRequest>;
  /** Subscription id → the client that made it (for the clean-up). */
  subscriptions: Map<string, string>;
  last?: Arrived;
}
const state = new WeakMap<SimWorld, NotificationState>();
export function stateOf(world: SimWorld): NotificationState {
  let s = state.get(world);
  if (!s) state.set(world, (s = { consumed: new Set(), subscriptions: new Map() }));
  return s;
}

/** Remembers every leaf of `value` as `<prefix>.<dotted path>` (and the whole as `<prefix>`). */
export function rememberAll(world: SimWorld, prefix: string, value: unknown): void {
  world.vars[prefix] = typeof value === 'string' ? value : JSON.stringify(value);
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) rememberAll(world, `${prefix}.${k}`, v);
  }
}

/** Subscribes to the world's webhook receiver, or, given a queue URL, to that queue. */
export async function subscribe(
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
export function ours(world: SimWorld, r: ReceivedRequest): boolean {
  const m = /^\/hooks\/([0-9a-f-]{36})$/.exec(r.path);
  return !!m && (stateOf(world).subscriptions.has(m[1]!) || world.vars.subscription_id === m[1]);
}

/** A test of a notification's JSON: its kind, the world's organisation, and `field` = `value` when given. */
export function wanted(
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
export function bringRetriesDue(world: SimWorld): void {
  const rt = world.target.runtime;
  if (!rt) return;
  const next = rt.sim.outbox.nextDueMs();
  if (next === undefined) return;
  if (next > rt.wall.now().getTime()) rt.wall.set(new Date(next));
  rt.delivery.runDue().catch(() => undefined);
}

export async function awaitNotification(
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
export async function awaitQueued(
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

export function lastNotification(world: SimWorld): Arrived {
  const last = stateOf(world).last;
  if (!last) throw new Error('no notification has arrived yet');
  return last;
}

/** The last notification's webhook request (header steps mean nothing for a queue message). */
export function lastWebhook(world: SimWorld): ReceivedRequest {
  const last = lastNotification(world);
  if (last.kind !== 'webhook') throw new Error('the last notification was read off a queue: it has no HTTP headers');
  return last.request;
}
