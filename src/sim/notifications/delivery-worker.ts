import { systemClock, type Clock } from '../../clock/clock.ts';
import type { Store } from '../store.ts';
import { DEFAULT_HTTP_TIMEOUT_MS, DeliveryInterrupted, postWebhook } from './http-transport.ts';
import type { AttemptOutcome, Outbox, OutboxEntry } from './outbox.ts';
import { QueueTransport, type SqsOptions } from './queue-transport.ts';
import type { Subscription, Subscriptions } from './subscriptions.ts';

export interface DeliveryOptions {
  /** Per-attempt timeout of a webhook POST or an SQS call (default 10 s). */
  timeoutMs?: number;
  /** Server-wide Standard Webhooks secret, used when a subscription has none. */
  webhookSecret?: string;
  sqs?: SqsOptions;
  /** Deliveries in flight at once (default 8). */
  concurrency?: number;
  /** Longest sleep between looks at the outbox (default 1 s), so a moved wall clock is noticed. */
  maxSleepMs?: number;
  random?: () => number;
}

export interface DeliveryDeps {
  store: Store;
  wall: Clock;
  outbox: Outbox;
  subscriptions: Subscriptions;
}

/**
 * Delivers pending outbox entries in the background (a runtime Worker). Before sending it waits
 * for the store to hold the change (durable before sent); after each pass it commits the attempts.
 * On stop, attempts in flight are aborted and left pending, so they run again after a restart.
 */
export class DeliveryWorker {
  readonly #deps: DeliveryDeps;
  readonly #options: Required<Omit<DeliveryOptions, 'webhookSecret' | 'sqs'>> & Pick<DeliveryOptions, 'webhookSecret'>;
  readonly #queue: QueueTransport;
  readonly #inFlight = new Set<string>();
  #running = false;
  #timer: NodeJS.Timeout | undefined;
  #pass: Promise<number> | undefined;
  #again = false;
  #stopping = new AbortController();
  #off: (() => void) | undefined;

  constructor(deps: DeliveryDeps, options: DeliveryOptions = {}) {
    this.#deps = deps;
    this.#options = {
      timeoutMs: options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS,
      concurrency: options.concurrency ?? 8,
      maxSleepMs: options.maxSleepMs ?? 1000,
      random: options.random ?? Math.random,
      ...(options.webhookSecret ? { webhookSecret: options.webhookSecret } : {}),
    };
    this.#queue = new QueueTransport(options.sqs);
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#stopping = new AbortController();
    this.#off = this.#deps.outbox.onPending(() => this.#wake(0));
    this.#wake(0);
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#off?.();
    clearTimeout(this.#timer);
    this.#stopping.abort();
    await this.#pass?.catch(() => undefined);
    this.#queue.close();
  }

  /**
   * One pass: delivers every entry due now (wall clock), `concurrency` at a time, then commits.
   * Tests with a manual wall clock call this directly. Returns the number of attempts recorded.
   */
  runDue(): Promise<number> {
    if (this.#pass) {
      this.#again = true;
      return this.#pass;
    }
    let failed = false;
    const pass = this.#runPass()
      .catch((err: Error) => {
        failed = true;
        console.error(`scheme-sim: delivery pass failed: ${err.message}`);
        return 0;
      })
      .finally(() => {
        this.#pass = undefined;
        if (failed) this.#wake(this.#options.maxSleepMs);
        else if (this.#again) {
          this.#again = false;
          this.#wake(0);
        } else this.#scheduleNext();
      });
    this.#pass = pass;
    return pass;
  }

  async #runPass(): Promise<number> {
    const { store, wall, outbox } = this.#deps;
    // A notification is sent only once the change it announces is on disk.
    await store.commit();
    const signal = this.#stopping.signal;
    const due = outbox.due(wall.now().getTime()).filter((e) => !this.#inFlight.has(e.id));
    let recorded = 0;
    let next = 0;
    const lane = async () => {
      while (next < due.length && !signal.aborted) {
        const entry = due[next++]!;
        if (await this.#attempt(entry, signal)) recorded++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#options.concurrency, due.length) }, lane));
    if (store.dirty) await store.commit();
    return recorded;
  }

  async #attempt(entry: OutboxEntry, signal: AbortSignal): Promise<boolean> {
    const { outbox, subscriptions, wall } = this.#deps;
    const current = outbox.entries.get(entry.id);
    if (!current || current.status !== 'pending') return false;
    const sub = subscriptions.find(entry.subscription_id);
    if (!sub || sub.attributes.deactivated) {
      outbox.cancel(entry.id, sub ? `subscription ${sub.id} is deactivated` : `subscription ${entry.subscription_id} was deleted`);
      return false;
    }
    this.#inFlight.add(entry.id);
    const started = wall.now().getTime();
    try {
      const outcome = await this.#send(current, sub, signal);
      if (outcome.error_category === 'subscription_gone') subscriptions.deactivate(sub.id);
      return outbox.recordAttempt(entry.id, sub, outcome, started, this.#options.random) !== undefined;
    } catch (err) {
      if (err instanceof DeliveryInterrupted) return false;
      const outcome: AttemptOutcome = { ok: false, response_code: null, error_category: 'connection_error', error_message: `delivery failed: ${(err as Error).message}` };
      return outbox.recordAttempt(entry.id, sub, outcome, started, this.#options.random) !== undefined;
    } finally {
      this.#inFlight.delete(entry.id);
    }
  }

  #send(entry: OutboxEntry, sub: Subscription, signal: AbortSignal): Promise<AttemptOutcome> {
    const body = JSON.stringify(entry.notification);
    const a = sub.attributes;
    if (a.callback_transport === 'queue') {
      return this.#queue.send({
        queueUrl: a.callback_uri,
        body,
        eventType: entry.notification.event_type,
        recordType: entry.notification.record_type,
        notificationId: entry.id,
        subscriptionId: sub.id,
        timeoutMs: this.#options.timeoutMs,
        signal,
      });
    }
    const secret = this.#deps.subscriptions.secretOf(sub.id) ?? this.#options.webhookSecret;
    // webhook-timestamp is real time even when tests drive `wall` by hand: receivers check it
    // against their own clock to refuse replays.
    return postWebhook({ uri: a.callback_uri, id: entry.id, body, ...(secret ? { secret } : {}), now: systemClock.now(), timeoutMs: this.#options.timeoutMs, signal });
  }

  #wake(delayMs: number): void {
    if (!this.#running) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.runDue(), delayMs);
  }

  #scheduleNext(): void {
    if (!this.#running) return;
    const due = this.#deps.outbox.nextDueMs();
    if (due === undefined) return;
    const wait = Math.min(Math.max(0, due - this.#deps.wall.now().getTime()), this.#options.maxSleepMs);
    this.#wake(wait);
  }
}
