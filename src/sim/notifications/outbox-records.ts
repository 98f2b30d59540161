// The records of the outbox: what waits to be delivered, and the log of every try.
import { isoTimestamp } from '../../clock/clock.ts';
import { newId } from '../new-id.ts';
import type { CallbackTransport } from './callback-transport.ts';
import type { Notification } from './notification.ts';
import { type Callback, callbacksOf, type Subscription } from './subscriptions.ts';

export type DeliveryStatus = 'pending' | 'delivered' | 'abandoned' | 'cancelled';
export type ErrorCategory = 'http_error' | 'subscription_gone' | 'timeout' | 'connection_error' | 'queue_error';

/**
 * One notification for one callback of a subscription, stored before anything is sent. `id` is the
 * notification's id for the first callback, a fresh one for each further callback.
 */
export interface OutboxEntry {
  id: string;
  organisation_id: string;
  subscription_id: string;
  /** Where this entry goes: one of the subscription's callbacks (absent in entries stored before callback_uris: its first). */
  callback?: Callback;
  notification: Notification;
  status: DeliveryStatus;
  status_reason?: string;
  attempts: number;
  /** Wall time (ms) the entry was stored or last queued for redelivery; the retry window starts here. */
  queued_at_ms: number;
  /** Wall time (ms) the next attempt is due (meaningful while pending). */
  next_attempt_ms: number;
  delivered_at?: string;
  /** Wall time (ms) of the last redelivery asked for (redelivery is rate-limited per entry). */
  redelivered_at_ms?: number;
  /** Wall time (ms) the entry stopped being pending (retention counts from here). */
  finished_at_ms?: number;
}

/** The least wall time between two redeliveries of one entry, unless configured (10 s). */
export const DEFAULT_REDELIVERY_INTERVAL_MS = 10_000;

/** One try at delivering an entry, successful or not. */
export interface DeliveryAttempt {
  id: string;
  organisation_id: string;
  notification_id: string;
  subscription_id: string;
  event_type: string;
  record_type: string;
  transport: CallbackTransport;
  callback_uri: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  response_code: number | null;
  duration_ms: number;
  error_category?: ErrorCategory;
  error_message?: string;
  /** Scheme clock time of the attempt (like every resource timestamp). */
  occurred_on: string;
  /** Wall time of the attempt (retries run in wall time). */
  attempted_at: string;
}

export interface AttemptOutcome {
  ok: boolean;
  response_code: number | null;
  error_category?: ErrorCategory;
  error_message?: string;
}

/** Where an entry goes: its own callback, or (stored before callback_uris) the subscription's first. */
export function callbackOf(entry: OutboxEntry, subscription: Subscription | undefined): Callback | undefined {
  return entry.callback ?? (subscription ? callbacksOf(subscription.attributes)[0] : undefined);
}

/** The lane of an entry: its subscription and callback (a FIFO queue's order holds within one). */
export function laneOf(e: OutboxEntry): string {
  return `${e.subscription_id}|${e.callback?.callback_uri ?? ''}`;
}

/** The log record of one attempt at an entry. */
export function attemptOf(
  entry: OutboxEntry,
  subscription: Subscription,
  outcome: AttemptOutcome,
  at: { attemptedAt: Date; startedAtMs: number; occurredOn: Date },
): DeliveryAttempt {
  const callback = callbackOf(entry, subscription);
  return {
    id: newId(),
    organisation_id: entry.organisation_id,
    notification_id: entry.notification.id,
    subscription_id: entry.subscription_id,
    event_type: entry.notification.event_type,
    record_type: entry.notification.record_type,
    transport: callback?.callback_transport ?? 'http',
    callback_uri: callback?.callback_uri ?? '',
    attempt: entry.attempts + 1,
    status: outcome.ok ? 'succeeded' : 'failed',
    response_code: outcome.response_code,
    duration_ms: Math.max(0, at.attemptedAt.getTime() - at.startedAtMs),
    ...(outcome.error_category ? { error_category: outcome.error_category } : {}),
    ...(outcome.error_message ? { error_message: outcome.error_message } : {}),
    occurred_on: isoTimestamp(at.occurredOn),
    attempted_at: isoTimestamp(at.attemptedAt),
  };
}
