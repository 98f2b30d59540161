// One outbox entry sent to its callback: chooses the webhook or queue transport and the signatures
// each needs, so the worker only schedules.
import type { KeyObject } from 'node:crypto';
import { systemClock } from '../clock/clock.ts';
import { form3SignatureHeaders, queueSignature } from '../signatures/notifications/form3-notification-signature.ts';
import type { AttemptOutcome, OutboxEntry } from '../sim/notifications/outbox.ts';
import { callbackOf } from '../sim/notifications/outbox-records.ts';
import type { Subscription } from '../sim/notifications/subscriptions.ts';
import { postWebhook } from './http-transport.ts';
import type { QueueTransport } from './queue-transport.ts';

/** A subscription with nowhere to deliver (it cannot be made so; a data file could hold one). */
const NO_CALLBACK: AttemptOutcome = {
  ok: false,
  response_code: null,
  error_category: 'connection_error',
  error_message: 'the subscription has no callback',
};

export interface SendContext {
  queue: QueueTransport;
  timeoutMs: number;
  signal: AbortSignal;
  /** The Standard Webhooks secret (the subscription's own, or the server's). */
  secret?: string;
  /** The key that signs the notification as Form3 signs them. */
  key?: { id: string; privateKey: KeyObject };
}

/** Sends one outbox entry to its callback, over the queue or the http transport. */
export function sendNotification(entry: OutboxEntry, sub: Subscription, ctx: SendContext): Promise<AttemptOutcome> {
  const body = JSON.stringify(entry.notification);
  const a = callbackOf(entry, sub);
  const { key, secret, signal, timeoutMs } = ctx;
  if (!a) return Promise.resolve(NO_CALLBACK);
  if (a.callback_transport === 'queue') {
    return ctx.queue.send({
      queueUrl: a.callback_uri,
      body,
      eventType: entry.notification.event_type,
      recordType: entry.notification.record_type,
      notificationId: entry.id,
      deduplicationId: entry.redelivered_at_ms === undefined ? entry.id : `${entry.id}:${entry.redelivered_at_ms}`,
      subscriptionId: sub.id,
      timeoutMs,
      signal,
      ...(key ? { signature: queueSignature(body, key, systemClock.now()) } : {}),
    });
  }
  // webhook-timestamp is real time even when tests drive `wall` by hand: receivers check it
  // against their own clock to refuse replays.
  return postWebhook({
    uri: a.callback_uri,
    id: entry.id,
    body,
    ...(secret ? { secret } : {}),
    ...(key ? { form3: form3SignatureHeaders(a.callback_uri, body, key, systemClock.now()) } : {}),
    now: systemClock.now(),
    timeoutMs,
    signal,
  });
}
