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
  /** Attempts in flight at once (default 16) and per subscription (default 4), so one slow callback cannot hold up the others. */
  concurrency?: number;
  perSubscription?: number;
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
 * Delivers pending outbox entries in the background (a runtime Worker). An attempt starts only
 * once the store holds the change it announces, and its result is committed when it ends. On
 * stop, attempts in flight are aborted and left pending, so they run again after a restart.
 */
export class DeliveryWorker {
  readonly #deps: DeliveryDeps;
  readonly #o: Required<Omit<DeliveryOptions, 'webhookSecret' | 'sqs'>> & Pick<DeliveryOptions, 'webhookSecret'>;
  readonly #queue: QueueTransport;
  /** Entry id → the attempt in flight. */
  readonly #inFlight = new Map<string, { subscriptionId: string; done: Promise<boolean> }>();
  #running = false;
  #timer: NodeJS.Timeout | undefined;
  #stopping = new AbortController();
  #off: (() => void) | undefined;
  #pausedUntil = 0;

  constructor(deps: DeliveryDeps, options: DeliveryOptions = {}) {
    this.#deps = deps;
    this.#o = {
      timeoutMs: options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS,
      concurrency: options.concurrency ?? 16,
      perSubscription: options.perSubscription ?? 4,
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
    this.#off = this.#deps.outbox.onPending(() => this.#soon());
    this.#soon();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#off?.();
    clearTimeout(this.#timer);
    this.#stopping.abort();
    await Promise.all([...this.#inFlight.values()].map((f) => f.done));
    this.#queue.close();
  }

  /**
   * Attempts every entry due now (wall clock) within the concurrency limits and waits for them.
   * Tests with a manual wall clock drive delivery with this. Returns the attempts recorded.
   */
  async runDue(): Promise<number> {
    const due = new Set(this.#deps.outbox.due(this.#deps.wall.now().getTime()).map((e) => e.id));
    let recorded = 0;
    for (;;) {
      const started = this.#launchDue((e) => due.delete(e.id));
      if (this.#inFlight.size === 0 && started.length === 0) return recorded;
      const results = await Promise.all([...this.#inFlight.values()].map((f) => f.done));
      recorded += results.filter(Boolean).length;
      if (due.size === 0) return recorded;
    }
  }

  /** Starts attempts for due entries while the limits allow; returns the entries started. */
  #launchDue(accept: (e: OutboxEntry) => boolean = () => true): OutboxEntry[] {
    const started: OutboxEntry[] = [];
    const perSub = new Map<string, number>();
    for (const f of this.#inFlight.values()) perSub.set(f.subscriptionId, (perSub.get(f.subscriptionId) ?? 0) + 1);
    for (const e of this.#deps.outbox.due(this.#deps.wall.now().getTime())) {
      if (this.#inFlight.size >= this.#o.concurrency) break;
      const n = perSub.get(e.subscription_id) ?? 0;
      if (this.#inFlight.has(e.id) || n >= this.#o.perSubscription || !accept(e)) continue;
      perSub.set(e.subscription_id, n + 1);
      const done = this.#attempt(e).finally(() => {
        this.#inFlight.delete(e.id);
        this.#soon();
      });
      this.#inFlight.set(e.id, { subscriptionId: e.subscription_id, done });
      started.push(e);
    }
    return started;
  }

  /** Background loop: start what is due, then sleep until the next entry is due (at most maxSleepMs). */
  #pump(): void {
    if (!this.#running) return;
    const now = this.#deps.wall.now().getTime();
    if (Date.now() >= this.#pausedUntil) this.#launchDue();
    let next: number | undefined;
    for (const e of this.#deps.outbox.pending()) {
      if (!this.#inFlight.has(e.id) && (next === undefined || e.next_attempt_ms < next)) next = e.next_attempt_ms;
    }
    if (next === undefined) return; // woken by the next enqueue
    // Due but held back by the limits: an attempt ending wakes the loop; the sleep is a backstop.
    const wait = Math.max(this.#pausedUntil - Date.now(), next > now ? next - now : this.#o.maxSleepMs);
    this.#arm(Math.min(Math.max(0, wait), this.#o.maxSleepMs));
  }

  #soon(): void {
    this.#arm(0);
  }

  #arm(ms: number): void {
    if (!this.#running) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#pump(), ms);
  }

  /** One attempt; true when it was recorded. Never rejects. */
  async #attempt(entry: OutboxEntry): Promise<boolean> {
    const { outbox, subscriptions, wall, store } = this.#deps;
    const signal = this.#stopping.signal;
    try {
      // A notification is sent only once the change it announces is on disk.
      await store.commit();
    } catch (err) {
      this.#pausedUntil = Date.now() + this.#o.maxSleepMs;
      console.error(`scheme-sim: delivery paused, the store cannot be written: ${(err as Error).message}`);
      return false;
    }
    const current = outbox.entries.get(entry.id);
    if (!current || current.status !== 'pending' || signal.aborted) return false;
    const sub = subscriptions.find(current.subscription_id);
    if (!sub || sub.attributes.deactivated) {
      outbox.cancel(entry.id, sub ? `subscription ${sub.id} is deactivated` : `subscription ${current.subscription_id} was deleted`);
      return false;
    }
    const started = wall.now().getTime();
    let outcome: AttemptOutcome;
    try {
      outcome = await this.#send(current, sub, signal);
    } catch (err) {
      if (err instanceof DeliveryInterrupted) return false;
      outcome = { ok: false, response_code: null, error_category: 'connection_error', error_message: `delivery failed: ${(err as Error).message}` };
    }
    if (outcome.error_category === 'subscription_gone') subscriptions.deactivate(sub.id);
    const recorded = outbox.recordAttempt(entry.id, sub, outcome, started, this.#o.random) !== undefined;
    await store.commit().catch((err: Error) => console.error(`scheme-sim: cannot commit a delivery attempt: ${err.message}`));
    return recorded;
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
        timeoutMs: this.#o.timeoutMs,
        signal,
      });
    }
    const secret = this.#deps.subscriptions.secretOf(sub.id) ?? this.#o.webhookSecret;
    // webhook-timestamp is real time even when tests drive `wall` by hand: receivers check it
    // against their own clock to refuse replays.
    return postWebhook({ uri: a.callback_uri, id: entry.id, body, ...(secret ? { secret } : {}), now: systemClock.now(), timeoutMs: this.#o.timeoutMs, signal });
  }
}
