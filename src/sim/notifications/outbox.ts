// Notifications are stored before they are sent and retried until delivered or given up: the outbox
// that holds them, hands the delivery worker the next one due and logs every attempt.
import type { Clock } from '../../clock/clock.ts';
import { MinHeap } from '../../clock/heap.ts';
import type { Collection } from '../../store/collection.ts';
import type { Store } from '../../store/store.ts';
import { notFound } from '../errors.ts';
import { newId } from '../new-id.ts';
import { matchingExactly } from '../resource.ts';
import type { Notification } from './notification.ts';
import {
  type AttemptOutcome,
  attemptOf,
  DEFAULT_REDELIVERY_INTERVAL_MS,
  type DeliveryAttempt,
  laneOf,
  type OutboxEntry,
} from './outbox-records.ts';
import { assertRedeliverable } from './outbox-redelivery.ts';
import { DEFAULT_DELIVERY_RETENTION, type DeliveryRetention } from './outbox-retention.ts';
import { DEFAULT_RETRY_SCHEDULE, delayBefore, nextAttemptAt, type RetrySchedule } from './retry-schedule.ts';
import { type Callback, callbacksOf, type Subscription } from './subscriptions.ts';

export type { AttemptOutcome, DeliveryAttempt, OutboxEntry } from './outbox-records.ts';

export interface OutboxDeps {
  wall: Clock;
  scheme: Clock;
  /** The subscription an entry belongs to, for redelivery (the simulator gives Subscriptions.find). */
  subscriptionOf?: (id: string) => Subscription | undefined;
  schedule?: RetrySchedule;
  redeliveryIntervalMs?: number;
  retention?: DeliveryRetention;
}

/**
 * The persisted outbox: entries waiting to be delivered and the log of every attempt. Changes
 * here are not records of the API and emit no events (so delivery never notifies about itself).
 */
export class Outbox {
  readonly entries: Collection<OutboxEntry>;
  readonly attempts: Collection<DeliveryAttempt>;
  schedule: RetrySchedule;
  /** The least wall time between two redeliveries of one entry. */
  redeliveryIntervalMs: number;
  /** What is kept of finished entries (outbox-retention.ts). */
  retention: DeliveryRetention;
  readonly #wall: Clock;
  readonly #clock: Clock;
  readonly #listeners = new Set<() => void>();
  readonly #attemptListeners = new Set<(attempt: DeliveryAttempt) => void>();
  /**
   * Pending entries by due time, so the worker never scans the outbox. Lazy: an item is stale
   * (and dropped when met) once its entry is gone, no longer pending, or due at another time.
   */
  readonly #due = new MinHeap<{ id: string; at: number }>((a, b) => a.at < b.at);
  readonly #queued = new Set<string>();
  readonly #subscriptionOf: (id: string) => Subscription | undefined;

  constructor(store: Store, deps: OutboxDeps) {
    this.redeliveryIntervalMs = deps.redeliveryIntervalMs ?? DEFAULT_REDELIVERY_INTERVAL_MS;
    this.retention = deps.retention ?? DEFAULT_DELIVERY_RETENTION;
    this.#subscriptionOf = deps.subscriptionOf ?? (() => undefined);
    this.entries = store.collection('notification_outbox');
    this.attempts = store.collection('notification_delivery_attempts');
    this.entries.defineIndex('pending', (e) => (e.status === 'pending' ? 'pending' : undefined));
    // One lane per subscription and callback: a FIFO queue's order is kept within its lane.
    this.entries.defineIndex('pending-by-lane', (e) => (e.status === 'pending' ? laneOf(e) : undefined));
    this.entries.defineIndex('pending-by-subscription', (e) =>
      e.status === 'pending' ? e.subscription_id : undefined,
    );
    this.attempts.defineIndex('organisation', (a) => a.organisation_id);
    this.attempts.defineIndex('subscription', (a) => a.subscription_id);
    this.attempts.defineIndex('notification', (a) => a.notification_id);
    // In the order entries finished (after a restart, the order they were made): the first go first.
    this.entries.defineIndex('finished', (e) => (e.status === 'pending' ? undefined : 'finished'));
    this.#wall = deps.wall;
    this.#clock = deps.scheme;
    this.schedule = deps.schedule ?? DEFAULT_RETRY_SCHEDULE;
    for (const e of this.pending()) this.#push(e);
    // An entry a failed unit put back to pending must be due again (#push skips what is queued).
    store.onRollback((touched) => {
      if (touched.has('notification_outbox')) for (const e of this.pending()) this.#push(e);
    });
  }

  #push(e: OutboxEntry): void {
    const key = `${e.id}@${e.next_attempt_ms}`;
    if (this.#queued.has(key)) return;
    this.#queued.add(key);
    this.#due.push({ id: e.id, at: e.next_attempt_ms });
  }

  /** The top of the due heap after dropping stale items. */
  #top(): OutboxEntry | undefined {
    for (;;) {
      const item = this.#due.peek();
      if (!item) return undefined;
      const e = this.entries.get(item.id);
      if (e && e.status === 'pending' && e.next_attempt_ms === item.at) return e;
      this.#due.pop();
      this.#queued.delete(`${item.id}@${item.at}`);
    }
  }

  /**
   * Takes the earliest pending entry due at `nowMs` off the due heap (the caller attempts it, or
   * hands it back with `requeue`). A failed attempt recorded with `recordAttempt` is queued again
   * by the outbox itself.
   */
  takeDue(nowMs: number): OutboxEntry | undefined {
    const e = this.#top();
    if (!e || e.next_attempt_ms > nowMs) return undefined;
    const item = this.#due.pop()!;
    this.#queued.delete(`${item.id}@${item.at}`);
    return e;
  }

  /** Puts a taken entry back when it was not attempted (or the attempt was not recorded). */
  requeue(id: string): void {
    const e = this.entries.get(id);
    if (e && e.status === 'pending') this.#push(e);
  }

  /** Calls `listener` with every attempt once logged (the live log); returns the unsubscribe. */
  onAttempt(listener: (attempt: DeliveryAttempt) => void): () => void {
    this.#attemptListeners.add(listener);
    return () => this.#attemptListeners.delete(listener);
  }

  /** Calls `listener` whenever an entry becomes pending (the worker wakes up). */
  onPending(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stores the notification for one callback of the subscription (`first`: its first callback). */
  enqueue(
    notification: Notification,
    subscription: Subscription,
    random?: () => number,
    callback: Callback | undefined = callbacksOf(subscription.attributes)[0],
    first = true,
  ): OutboxEntry {
    const now = this.#wall.now().getTime();
    const entry: OutboxEntry = {
      id: first ? notification.id : newId(),
      organisation_id: notification.organisation_id,
      subscription_id: subscription.id,
      ...(callback ? { callback } : {}),
      notification,
      status: 'pending',
      attempts: 0,
      queued_at_ms: now,
      next_attempt_ms: now + delayBefore(this.schedule, 1, random),
    };
    this.entries.put(entry);
    this.#push(entry);
    this.#wakeListeners();
    return entry;
  }

  pending(): OutboxEntry[] {
    return this.entries.lookup('pending', 'pending');
  }

  /**
   * The subscription's pending entry that became pending first (its notification was made first,
   * unless it was redelivered later): the one a FIFO queue must get before any other.
   */
  firstPending(
    subscriptionId: string,
    callbackUri = callbacksOf(this.#subscriptionOf(subscriptionId)?.attributes ?? {})[0]?.callback_uri ?? '',
  ): OutboxEntry | undefined {
    return this.entries.first('pending-by-lane', `${subscriptionId}|${callbackUri}`);
  }

  /** When the earliest queued entry is due (wall ms), or undefined when none is (taken ones are not). */
  nextDueMs(): number | undefined {
    return this.#top()?.next_attempt_ms;
  }

  /**
   * Logs an attempt and moves the entry on: delivered on success (recorded once: an entry no
   * longer pending is left as it is), else the next attempt per the schedule or abandoned.
   */
  recordAttempt(
    entryId: string,
    subscription: Subscription,
    outcome: AttemptOutcome,
    startedAtMs: number,
    random?: () => number,
  ): DeliveryAttempt | undefined {
    const entry = this.entries.get(entryId);
    if (entry?.status !== 'pending') return undefined;
    const now = this.#wall.now();
    const attempt = attemptOf(entry, subscription, outcome, {
      attemptedAt: now,
      startedAtMs,
      occurredOn: this.#clock.now(),
    });
    this.attempts.put(attempt);
    const next: OutboxEntry = { ...entry, attempts: attempt.attempt };
    delete next.status_reason;
    if (outcome.ok) {
      next.status = 'delivered';
      next.delivered_at = attempt.attempted_at;
    } else if (outcome.error_category === 'subscription_gone') {
      next.status = 'cancelled';
      next.status_reason = 'the callback answered 410 Gone; the subscription was deactivated';
    } else {
      const at = nextAttemptAt(this.schedule, entry.queued_at_ms, now.getTime(), attempt.attempt + 1, random);
      if (at === null) {
        next.status = 'abandoned';
        next.status_reason = `gave up after ${attempt.attempt} attempts: ${outcome.error_message ?? 'failed'}`;
      } else next.next_attempt_ms = at;
    }
    if (next.status === 'pending') {
      this.entries.put(next);
      this.#push(next);
    } else this.#finish(next, now.getTime());
    for (const l of this.#attemptListeners) l(attempt);
    return attempt;
  }

  /** Stores an entry that has left pending, then drops the finished entries over the count kept. */
  #finish(entry: OutboxEntry, nowMs: number): void {
    this.entries.put({ ...entry, finished_at_ms: nowMs });
    while (this.entries.count('finished', 'finished') > this.retention.maxFinished)
      this.#remove(this.entries.first('finished', 'finished')!.id);
  }

  /** Drops a finished entry and its attempts. */
  #remove(entryId: string): void {
    for (const a of this.attempts.lookup('notification', entryId)) this.attempts.delete(a.id);
    this.entries.delete(entryId);
  }

  /**
   * Drops finished entries (and their attempts) that finished longer than `retention.maxAgeMs` of
   * wall time ago. Returns how many went. The delivery worker calls it now and then.
   */
  prune(): number {
    const cutoff = this.#wall.now().getTime() - this.retention.maxAgeMs;
    let pruned = 0;
    for (const e of this.entries.lookup('finished', 'finished')) {
      if ((e.finished_at_ms ?? e.queued_at_ms) <= cutoff) {
        this.#remove(e.id);
        pruned++;
      }
    }
    return pruned;
  }

  /** Stops delivering an entry whose subscription is gone or deactivated. */
  cancel(entryId: string, reason: string): void {
    const entry = this.entries.get(entryId);
    if (entry && entry.status === 'pending')
      this.#finish({ ...entry, status: 'cancelled', status_reason: reason }, this.#wall.now().getTime());
  }

  /** Cancels every pending entry of a subscription gone or deactivated (in the unit that ended it); how many. */
  cancelPendingOf(subscriptionId: string, reason: string): number {
    const pending = this.entries.lookup('pending-by-subscription', subscriptionId);
    for (const e of pending) this.cancel(e.id, reason);
    return pending.length;
  }

  /** The failed attempts of a subscription, oldest first (its /errors). */
  failedAttemptsOf(subscriptionId: string): DeliveryAttempt[] {
    return this.attempts.lookup('subscription', subscriptionId).filter((a) => a.status === 'failed');
  }

  /** The attempts of an organisation, oldest first, that have every attribute of `filter` exactly. */
  attemptsOf(organisationId: string, filter: Partial<Record<keyof DeliveryAttempt, string>> = {}): DeliveryAttempt[] {
    return matchingExactly(this.attempts.lookup('organisation', organisationId), filter);
  }

  /** The entry with this notification id, or the entry of the attempt with this id, in the organisation. */
  find(id: string, organisationId: string): OutboxEntry | undefined {
    const entry = this.entries.get(id) ?? this.entries.get(this.attempts.get(id)?.notification_id ?? '');
    return entry && entry.organisation_id === organisationId ? entry : undefined;
  }

  /**
   * Queues a finished entry (delivered, abandoned, cancelled) again now; its id (webhook-id) stays
   * the same. An entry still pending (or in flight) is refused, and so is a redelivery sooner than
   * `redeliveryIntervalMs` of wall time after the last one: two callbacks redelivering each other
   * cannot spin.
   */
  redeliver(id: string, organisationId: string): OutboxEntry {
    const entry = this.find(id, organisationId);
    if (!entry) throw notFound(`delivery ${id} does not exist`);
    const now = this.#wall.now().getTime();
    assertRedeliverable(entry, this.#subscriptionOf(entry.subscription_id), now, this.redeliveryIntervalMs);
    const next: OutboxEntry = {
      ...entry,
      status: 'pending',
      queued_at_ms: now,
      next_attempt_ms: now,
      redelivered_at_ms: now,
    };
    delete next.status_reason;
    delete next.finished_at_ms;
    // Out and in again: the row moves behind the entries already pending, in the data file too,
    // so the order a FIFO queue is served in (rows by when they became pending) survives a restart.
    this.entries.delete(next.id);
    this.entries.put(next);
    this.#push(next);
    this.#wakeListeners();
    return next;
  }

  #wakeListeners(): void {
    for (const l of this.#listeners) l();
  }
}
