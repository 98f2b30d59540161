// Representations of the outbox for the API (these are not records: they emit no events).
import type { DeliveryAttempt, OutboxEntry } from '../../sim/notifications/outbox.ts';

/** One attempt as an item of GET /v1/simulator/deliveries. */
export function attemptView(a: DeliveryAttempt) {
  return {
    id: a.id,
    type: 'delivery_attempts',
    version: 0,
    organisation_id: a.organisation_id,
    created_on: a.occurred_on,
    modified_on: a.occurred_on,
    attributes: {
      notification_id: a.notification_id,
      subscription_id: a.subscription_id,
      event_type: a.event_type,
      record_type: a.record_type,
      transport: a.transport,
      callback_uri: a.callback_uri,
      attempt: a.attempt,
      status: a.status,
      response_code: a.response_code,
      duration_ms: a.duration_ms,
      ...(a.error_category ? { error_category: a.error_category } : {}),
      ...(a.error_message ? { error_message: a.error_message } : {}),
      attempted_at: a.attempted_at,
    },
  };
}

/** A failed attempt as a subscription_delivery_errors resource. */
export function errorView(a: DeliveryAttempt) {
  return {
    id: a.id,
    type: 'subscription_delivery_errors',
    version: 0,
    organisation_id: a.organisation_id,
    created_on: a.occurred_on,
    modified_on: a.occurred_on,
    attributes: {
      error_category: a.error_category ?? 'http_error',
      error_message: a.error_message ?? 'delivery failed',
      occurred_on: a.occurred_on,
      notification_id: a.notification_id,
      attempt: a.attempt,
      response_code: a.response_code,
    },
    relationships: { subscription: { data: [{ id: a.subscription_id, type: 'subscriptions' }] } },
  };
}

/** An outbox entry: the notification and where its delivery stands. */
export function deliveryView(e: OutboxEntry) {
  return {
    data: {
      id: e.id,
      type: 'notification_deliveries',
      organisation_id: e.organisation_id,
      attributes: {
        subscription_id: e.subscription_id,
        status: e.status,
        ...(e.status_reason ? { status_reason: e.status_reason } : {}),
        attempts: e.attempts,
        ...(e.status === 'pending' ? { next_attempt_at: new Date(e.next_attempt_ms).toISOString() } : {}),
        ...(e.delivered_at ? { delivered_at: e.delivered_at } : {}),
        notification: e.notification,
      },
    },
    links: { self: `/v1/simulator/deliveries/${e.id}` },
  };
}
