// What a subscriber receives, and which subscriptions hear of a change: the notification body and
// the matching of an event against a subscription's types and filter.
import { isoTimestamp } from '../../clock/clock.ts';
import type { RecordEvent } from '../events.ts';
import { newId } from '../new-id.ts';
import { conditionsOf } from './subscription-filter.ts';
import type { Subscription } from './subscriptions.ts';

/** What a subscriber receives: the webhook body and the SQS message body. */
export interface Notification {
  id: string;
  organisation_id: string;
  /** The notification's own version (always 0: a notification never changes). */
  version: 0;
  event_type: RecordEvent['event_type'];
  record_type: string;
  /** Scheme clock time of the change. */
  action_time: string;
  /** The id (UUID) of the client whose request made the change, or the simulator's system user (actor.ts). */
  actioned_by: string;
  /** Form3's internal name of the record's type (`Account`, `ReportAdmission`, `ClaimSubmission`…). */
  data_record_type: string;
  /** The record's GET body at the time of the change: `data.data` is the resource. */
  data: { data: unknown; links: { self: string } };
  /** The subscription's user_defined_data, echoed so a receiver can route. */
  user_defined_data?: Array<{ key: string; value: string }>;
}

/** Reads a dotted path (`attributes.status`, `relationships.report.data.0.id`) out of a value. */
export function pickPath(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** True when every condition of the filter holds for the record (no filter: always). */
export function matchesFilter(filter: string | undefined, record: unknown): boolean {
  if (!filter) return true;
  return conditionsOf(filter).every(({ path, value }) => {
    const got = pickPath(record, path);
    return got !== undefined && got !== null && typeof got !== 'object' && String(got) === value;
  });
}

/** True when the subscription wants this event (active, same organisation and types, filter holds). */
export function subscriptionMatches(s: Subscription, event: RecordEvent): boolean {
  const a = s.attributes;
  return (
    !a.deactivated &&
    s.organisation_id === event.record.organisation_id &&
    a.event_type === event.event_type &&
    a.record_type === event.record_type &&
    matchesFilter(a.filter, event.record)
  );
}

/** The notification of one event for one subscription. */
export function buildNotification(
  event: RecordEvent,
  /** The record's GET body (ResourcePaths.bodyOf), which the notification carries as `data`. */
  body: { data: object; links: { self: string } },
  subscription: Subscription,
  actionTime: Date,
  actionedBy: string,
  id: string = newId(),
): Notification {
  const n: Notification = {
    id,
    organisation_id: event.record.organisation_id,
    version: 0,
    event_type: event.event_type,
    record_type: event.record_type,
    data_record_type: dataRecordTypeOf(event.record_type),
    action_time: isoTimestamp(actionTime),
    actioned_by: actionedBy,
    data: structuredClone(body),
  };
  if (subscription.attributes.user_defined_data?.length)
    n.user_defined_data = structuredClone(subscription.attributes.user_defined_data);
  return n;
}

/**
 * Form3's `data_record_type` of a resource type: singular, PascalCase (`report_admissions` →
 * `ReportAdmission`), as the seed's examples show; Form3 calls its evaluation discouraged.
 */
export function dataRecordTypeOf(recordType: string): string {
  const singular = recordType.replace(/ies$/, 'y').replace(/s$/, '');
  return singular
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}
