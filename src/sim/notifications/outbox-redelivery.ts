// A client may ask for a finished delivery to be sent again: the rule for when it may, kept out of
// the outbox so two callbacks that redeliver each other cannot spin.
import { isoTimestamp } from '../../clock/clock.ts';
import { conflict, rateLimited } from '../errors.ts';
import type { OutboxEntry } from './outbox-records.ts';
import type { Subscription } from './subscriptions.ts';

/**
 * Whether a finished delivery may be queued again now (409 or 429 naming why not): its
 * subscription must still exist and be active, the entry must have finished, and the last
 * redelivery must be at least `intervalMs` of wall time ago, so two callbacks that redeliver each
 * other cannot spin.
 */
export function assertRedeliverable(
  entry: OutboxEntry,
  subscription: Subscription | undefined,
  nowMs: number,
  intervalMs: number,
): void {
  if (!subscription) throw conflict(`subscription ${entry.subscription_id} of delivery ${entry.id} no longer exists`);
  if (subscription.attributes.deactivated)
    throw conflict(
      `subscription ${subscription.id} is deactivated; activate it (PATCH deactivated false) before redelivering`,
    );
  if (entry.status === 'pending') {
    throw conflict(
      `delivery ${entry.id} is already pending (attempt ${entry.attempts + 1} due at ${isoTimestamp(new Date(entry.next_attempt_ms))}); redeliver it once it has finished`,
    );
  }
  if (entry.redelivered_at_ms !== undefined && nowMs - entry.redelivered_at_ms < intervalMs) {
    const waitMs = entry.redelivered_at_ms + intervalMs - nowMs;
    throw rateLimited(
      `delivery ${entry.id} was redelivered less than ${intervalMs / 1000} s ago; try again in ${Math.ceil(waitMs / 1000)} s`,
      Math.ceil(waitMs / 1000),
    );
  }
}
