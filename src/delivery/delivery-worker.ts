// Notifications leave the simulator here: the background worker that sends what the outbox holds,
// within concurrency limits, and records how each attempt went.
import type { KeyObject } from 'node:crypto';
import type { Clock } from '../clock/clock.ts';
import type { AttemptOutcome, Outbox, OutboxEntry } from '../sim/notifications/outbox.ts';
import { callbackOf } from '../sim/notifications/outbox-records.ts';
import type { Subscriptions } from '../sim/notifications/subscriptions.ts';
import type { Store } from '../store/store.ts';
import type { ClientRequests } from './client-requests.ts';
import type { DeliveryOptions } from './delivery-options.ts';
import { EntriesAside } from './entries-aside.ts';
import { DEFAULT_HTTP_TIMEOUT_MS, DeliveryInterrupted } from './http-transport.ts';
import { LoopTurns, REQUESTS_FIRST } from './loop-turns.ts';
import { isFifoQueue, QueueTransport } from './queue-transport.ts';
import { sendNotification } from './send-notification.ts';

export type { DeliveryOptions } from './delivery-options.ts';

/**
 * Due entries passed over (their subscription at its limit) or parked (a FIFO queue's later ones)
 * per look before the look stops: a backlog of thousands (after a long advance) is looked at a
 * bounded piece per turn of the event loop, never in one pass.
 */
const MAX_LOOK = 1000;
/** Wall time between two prunings of finished deliveries older than the retention (outbox.prune). */
const PRUNE_EVERY_MS = 60_000;

export interface DeliveryDeps {
  store: Store;
  wall: Clock;
  outbox: Outbox;
  subscriptions: Subscriptions;
  /** The key that signs every notification as Form3 signs them (absent: unsigned but for Standard Webhooks). */
  signingKey?: () => { id: string; privateKey: KeyObject };
  /** Makes the signing key off the event loop if there is none yet; awaited before `signingKey`. */
  prepareSigningKey?: () => Promise<void>;
  /** The requests the server is answering, which delivery gives way to (none: it never waits for them). */
  requests?: ClientRequests;
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
  /** One attempt step per iteration of the event loop, client requests first (see #attempt). */
  readonly #turns: LoopTurns;
  #running = false;
  #timer: NodeJS.Timeout | undefined;
  #woken = false;
  #stopping = new AbortController();
  #off: (() => void) | undefined;
  /** Real time (Date.now): it paces this loop's own setTimeout, which runs on real time even when tests drive `wall` by hand. */
  #pausedUntil = 0;
  /** Wall time of the last pruning (the first look prunes). */
  #prunedAt = -Infinity;
  /** Due entries kept out of the heap: a FIFO queue's not their turn, others' at their subscription's limit. */
  readonly #aside = new EntriesAside();

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
    this.#turns = new LoopTurns(deps.requests ? { requests: deps.requests, ...REQUESTS_FIRST } : undefined);
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#woken = false;
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
    for (const id of this.#aside.drain()) this.#deps.outbox.requeue(id);
    this.#queue.close();
  }

  /**
   * Attempts every entry due now (wall clock), each at most once, within the concurrency limits,
   * and waits for them. Tests with a manual wall clock drive delivery with this. Returns the
   * attempts recorded.
   */
  async runDue(): Promise<number> {
    const now = this.#deps.wall.now().getTime();
    const tried = new Set<string>();
    let recorded = 0;
    for (;;) {
      const { more } = this.#launchDue(now, (e) => {
        if (tried.has(e.id)) return false;
        tried.add(e.id);
        return true;
      });
      if (this.#inFlight.size === 0) {
        if (!more) return recorded;
        await new Promise<void>((resolve) => setImmediate(resolve)); // a big backlog: a bounded look per turn
        continue;
      }
      const results = await Promise.all([...this.#inFlight.values()].map((f) => f.done));
      recorded += results.filter(Boolean).length;
    }
  }

  /**
   * Starts attempts for entries due at `nowMs` while the limits allow; the rest stay queued.
   * Returns when the earliest entry not passed over is due: an entry passed over waits for an
   * attempt to finish (which wakes the loop), not for its own due time, which may well be past.
   */
  #launchDue(
    nowMs: number,
    accept: (e: OutboxEntry) => boolean = () => true,
  ): { nextDueMs: number | undefined; held: number; more: boolean } {
    const { outbox } = this.#deps;
    const perSub = new Map<string, number>();
    for (const f of this.#inFlight.values()) perSub.set(f.subscriptionId, (perSub.get(f.subscriptionId) ?? 0) + 1);
    // Entries passed over (their subscription is at its limit) go back afterwards; looking at a
    // bounded number of them keeps a backlog of one subscription from costing a scan.
    const held: string[] = [];
    let parkedNow = 0;
    // First those held at their subscription's limit: due already, and its oldest.
    for (const subscriptionId of this.#aside.heldSubscriptions()) {
      while (this.#inFlight.size < this.#o.concurrency && (perSub.get(subscriptionId) ?? 0) < this.#o.perSubscription) {
        const next = this.#aside.takeHeld(subscriptionId);
        if (!next) break;
        const e = outbox.entries.get(next.id);
        // Gone, finished, in flight or due at another time since (a unit rolled back): not this one.
        if (e?.status !== 'pending' || e.next_attempt_ms !== next.at || this.#inFlight.has(e.id)) continue;
        if (!this.#inTurn(e)) this.#aside.park(e);
        else if (!accept(e)) held.push(e.id);
        else this.#launch(e, perSub);
      }
    }
    while (this.#inFlight.size < this.#o.concurrency && held.length + parkedNow < MAX_LOOK) {
      const e = outbox.takeDue(nowMs);
      if (!e) break;
      if (!this.#inTurn(e)) {
        parkedNow++;
        this.#aside.park(e);
        continue;
      }
      if (this.#inFlight.has(e.id)) {
        held.push(e.id);
        continue;
      }
      if ((perSub.get(e.subscription_id) ?? 0) >= this.#o.perSubscription) {
        // Handed back to the heap, it would be taken again at every look (entries-aside.ts).
        parkedNow++;
        this.#aside.hold(e);
        continue;
      }
      if (!accept(e)) {
        held.push(e.id);
        continue;
      }
      this.#launch(e, perSub);
    }
    const nextDueMs = outbox.nextDueMs(); // before the passed-over entries go back
    for (const id of held) outbox.requeue(id);
    // Parking made way (parked entries leave the heap): the look goes on at the next turn.
    return { nextDueMs, held: held.length, more: parkedNow > 0 && held.length + parkedNow >= MAX_LOOK };
  }

  /** Starts an attempt at `e` and counts it in `perSub`; when it ends the loop looks again. */
  #launch(e: OutboxEntry, perSub: Map<string, number>): void {
    const { outbox } = this.#deps;
    perSub.set(e.subscription_id, (perSub.get(e.subscription_id) ?? 0) + 1);
    const done = this.#attempt(e)
      .catch((err: Error) => {
        console.error(`scheme-sim: delivery of ${e.id} failed unexpectedly: ${err.message}`);
        return false;
      })
      .then((recorded) => {
        if (!recorded) outbox.requeue(e.id);
        return recorded;
      });
    this.#inFlight.set(e.id, {
      subscriptionId: e.subscription_id,
      done: done.finally(() => {
        this.#inFlight.delete(e.id);
        // Its FIFO queue's head may have left pending: the rest are looked at again in turn.
        for (const id of this.#aside.unpark(e.subscription_id)) outbox.requeue(id);
        this.#soon();
      }),
    });
  }

  /**
   * Whether the entry may be attempted before the subscription's others. A FIFO queue promises its
   * consumer the order messages were sent in, so its notifications go one at a time, oldest first:
   * one that fails holds the later ones back until it is delivered, abandoned or cancelled.
   */
  #inTurn(e: OutboxEntry): boolean {
    const callback = callbackOf(e, this.#deps.subscriptions.find(e.subscription_id));
    if (callback?.callback_transport !== 'queue' || !isFifoQueue(callback.callback_uri)) return true;
    return this.#deps.outbox.firstPending(e.subscription_id, e.callback?.callback_uri ?? '')?.id === e.id;
  }

  /** Background loop: start what is due, then sleep until the next entry is due (at most maxSleepMs). */
  #pump(): void {
    this.#woken = false;
    if (!this.#running) return;
    const now = this.#deps.wall.now().getTime();
    if (now - this.#prunedAt >= Math.min(PRUNE_EVERY_MS, this.#deps.outbox.retention.maxAgeMs)) {
      this.#prunedAt = now;
      this.#deps.outbox.prune(); // written with the next commit: losing a pruning to a crash costs nothing
    }
    const paused = Date.now() < this.#pausedUntil;
    const {
      nextDueMs: next,
      held,
      more,
    } = paused ? { nextDueMs: this.#deps.outbox.nextDueMs(), held: 0, more: false } : this.#launchDue(now);
    if (more) {
      this.#soon();
      return;
    }
    if (next === undefined && held === 0) return; // woken by the next enqueue or a finished attempt
    // Due but held back by the limits: a finished attempt wakes the loop; the sleep is a backstop.
    const wait = Math.max(
      this.#pausedUntil - Date.now(),
      next !== undefined && next > now ? next - now : this.#o.maxSleepMs,
    );
    this.#arm(Math.min(Math.max(0, wait), this.#o.maxSleepMs));
  }

  /** Wakes the loop on its next turn; many wake-ups before it (a burst of enqueues) arm one timer. */
  #soon(): void {
    if (this.#woken) return;
    this.#woken = true;
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
      // A notification is sent only once the change it announces is on disk. While requests keep
      // coming, their commits write it (then this one writes nothing), as with the record below.
      await this.#turns.quiet();
      await store.commit();
    } catch (err) {
      this.#pausedUntil = Date.now() + this.#o.maxSleepMs;
      console.error(`scheme-sim: delivery paused, the store cannot be written: ${(err as Error).message}`);
      return false;
    }
    // Attempts waiting on one commit all resume at once; each signs its notification (an RSA
    // signature, a millisecond or more) in an iteration of the event loop of its own, so requests
    // are answered in between, and while requests are being answered, only in its turn.
    await this.#turns.next();
    const current = outbox.entries.get(entry.id);
    if (current?.status !== 'pending' || signal.aborted) return false;
    const sub = subscriptions.find(current.subscription_id);
    if (!sub || sub.attributes.deactivated) {
      // Ended before its deliveries were cancelled with it (a data file of an older version): all
      // of its pending deliveries go in one unit and one commit.
      store.atomically(() =>
        outbox.cancelPendingOf(
          current.subscription_id,
          sub ? `subscription ${sub.id} is deactivated` : `subscription ${current.subscription_id} was deleted`,
        ),
      );
      await this.#commit();
      return false;
    }
    const started = wall.now().getTime();
    let outcome: AttemptOutcome;
    try {
      const secret = subscriptions.secretOf(sub.id) ?? this.#o.webhookSecret;
      await this.#deps.prepareSigningKey?.();
      const key = this.#deps.signingKey?.();
      outcome = await sendNotification(current, sub, {
        queue: this.#queue,
        timeoutMs: this.#o.timeoutMs,
        signal,
        ...(secret ? { secret } : {}),
        ...(key ? { key } : {}),
      });
    } catch (err) {
      if (err instanceof DeliveryInterrupted) return false;
      outcome = {
        ok: false,
        response_code: null,
        error_category: 'connection_error',
        error_message: `delivery failed: ${(err as Error).message}`,
      };
    }
    // Recording it is work of the event loop too. The entry stays pending meanwhile: were the
    // process to die before the record is on disk, it would be sent again (at least once).
    await this.#turns.next();
    // One unit: the attempt, and on a 410 the subscription deactivated with its other pending
    // deliveries cancelled (the attempt is recorded first, so it is not cancelled with them).
    const recorded = store.atomically(() => {
      const attempt = outbox.recordAttempt(entry.id, sub, outcome, started, this.#o.random);
      if (outcome.error_category === 'subscription_gone') subscriptions.deactivate(sub.id);
      return attempt !== undefined;
    });
    // While requests keep coming, their own commits write this too: a write of its own would be
    // one more for the next request's commit to wait behind.
    await this.#turns.quiet();
    await this.#commit();
    return recorded;
  }

  /** Commits what an attempt changed; a failure is logged (the change is written with the next commit). */
  #commit(): Promise<void> {
    return this.#deps.store
      .commit()
      .catch((err: Error) => console.error(`scheme-sim: cannot commit a delivery attempt: ${err.message}`));
  }
}
