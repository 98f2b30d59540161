// notification.duplicate: the newest notification about a record is queued again for each callback
// it went to, with the same notification id, as an at-least-once delivery can repeat it.
import { notFound } from '../errors.ts';
import type { Scenarios } from '../scenarios/scenarios.ts';
import type { Outbox, OutboxEntry } from './outbox.ts';
import type { Subscriptions } from './subscriptions.ts';

/** The record a notification is about (`data` is the record's GET body). */
const recordIdOf = (e: OutboxEntry) => (e.notification.data as { data?: { id?: string } } | undefined)?.data?.id;

export function registerNotificationScenarios(
  scenarios: Scenarios,
  outbox: Outbox,
  subscriptions: Subscriptions,
): void {
  const newest = (recordId: string, organisationId: string): OutboxEntry[] => {
    const about = outbox.entries
      .values()
      .filter((e) => e.organisation_id === organisationId && recordIdOf(e) === recordId);
    const last = about.at(-1)?.notification.id;
    return last === undefined ? [] : about.filter((e) => e.notification.id === last);
  };
  scenarios.register('notification.duplicate', {
    target(id, organisationId) {
      const entries = newest(id, organisationId);
      if (entries.length === 0)
        throw notFound(
          `no notification about record ${id} was sent to a subscription of organisation ${organisationId}`,
        );
      return { id, type: entries[0]!.notification.record_type };
    },
    now(scenario) {
      const recordId = scenario.relationships!.target!.data[0]!.id;
      const entries = newest(recordId, scenario.organisation_id);
      let queued = 0;
      for (const e of entries) {
        const subscription = subscriptions.find(e.subscription_id);
        if (!subscription) continue;
        outbox.enqueue(e.notification, subscription, undefined, e.callback, false);
        queued++;
      }
      return `notification ${entries[0]!.notification.id} (${entries[0]!.notification.event_type} ${entries[0]!.notification.record_type}) queued again for ${queued} callback${queued === 1 ? '' : 's'}`;
    },
  });
}
