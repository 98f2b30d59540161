// Where a record change becomes notifications: queued inside the change itself, so a notification is
// never lost nor sent for a change that was not committed.
import type { Clock } from '../../clock/clock.ts';
import { currentActor } from '../actor.ts';
import type { EventBus } from '../events.ts';
import type { ResourcePaths } from '../resource-paths.ts';
import { buildNotification, subscriptionMatches } from './notification.ts';
import type { Outbox } from './outbox.ts';
import { callbacksOf, type Subscriptions } from './subscriptions.ts';

/**
 * Turns record changes into outbox entries, synchronously inside the change, so a notification is
 * committed together with the change it announces and before anything is sent.
 */
export function notifyOnChanges(deps: {
  events: EventBus;
  subscriptions: Subscriptions;
  outbox: Outbox;
  clock: Clock;
  paths: ResourcePaths;
}): void {
  // A subscription deleted or deactivated takes its pending deliveries with it, in the same unit
  // (and so the same commit) as the change, however many there are.
  deps.events.on((event) => {
    if (event.record_type !== 'subscriptions') return;
    const { id, attributes } = event.record as { id: string; attributes?: { deactivated?: boolean } };
    if (event.event_type === 'deleted') deps.outbox.cancelPendingOf(id, `subscription ${id} was deleted`);
    else if (attributes?.deactivated) deps.outbox.cancelPendingOf(id, `subscription ${id} is deactivated`);
  });
  deps.events.on((event) => {
    const subs = deps.subscriptions.matching(event.record.organisation_id, event.event_type, event.record_type);
    if (subs.length === 0) return;
    // The record as its GET shows it: what a filter reads (relationships.report.data.0.attributes…) and what is sent.
    const body = deps.paths.bodyOf(event.record);
    const shown = { ...event, record: body.data };
    for (const s of subs) {
      if (!subscriptionMatches(s, shown)) continue;
      const notification = buildNotification(event, body, s, deps.clock.now(), currentActor());
      // One entry per callback: each of callback_uris gets the notification (the same id).
      callbacksOf(s.attributes).forEach((callback, i) => {
        deps.outbox.enqueue(notification, s, undefined, callback, i === 0);
      });
    }
  });
}
