// Due entries the delivery worker keeps out of the outbox's due heap, per subscription: a FIFO
// queue's entries that are not their turn, and entries met while their subscription had all the
// attempts in flight it may. Taken off the heap once, they are not popped and pushed again at every
// look (a thousand per finished attempt behind a two-year advance's backlog: most of the worker's
// CPU, until they waited here).
import type { OutboxEntry } from '../sim/notifications/outbox.ts';

/** An entry held at its subscription's limit, with the due time it had then. */
export interface HeldEntry {
  id: string;
  at: number;
}

export class EntriesAside {
  /**
   * FIFO subscription id → its due entries that wait for their turn, kept out of the due heap so a
   * long FIFO backlog neither fills a look nor holds back other subscriptions. They go back to the
   * heap when an attempt of that subscription ends (the head may have left pending) and on stop.
   */
  readonly #notTheirTurn = new Map<string, string[]>();
  /**
   * Subscription id → its due entries met while it had `perSubscription` attempts in flight, in
   * the order they were due: a look starts them as its attempts finish, before taking anything
   * from the heap. On stop they go back to the heap.
   */
  readonly #atLimit = new Map<string, { entries: HeldEntry[]; next: number }>();

  /** Keeps a FIFO queue's entry that is not its turn. */
  park(e: OutboxEntry): void {
    const ids = this.#notTheirTurn.get(e.subscription_id);
    if (ids) ids.push(e.id);
    else this.#notTheirTurn.set(e.subscription_id, [e.id]);
  }

  /** The subscription's entries that were not their turn, given back (for the heap). */
  unpark(subscriptionId: string): string[] {
    const ids = this.#notTheirTurn.get(subscriptionId) ?? [];
    this.#notTheirTurn.delete(subscriptionId);
    return ids;
  }

  /** Keeps an entry met while its subscription was at its limit. */
  hold(e: OutboxEntry): void {
    const held = { id: e.id, at: e.next_attempt_ms };
    const queue = this.#atLimit.get(e.subscription_id);
    if (queue) queue.entries.push(held);
    else this.#atLimit.set(e.subscription_id, { entries: [held], next: 0 });
  }

  /** The subscriptions that have entries held at their limit. */
  heldSubscriptions(): string[] {
    return [...this.#atLimit.keys()];
  }

  /** Takes the oldest entry held for the subscription; undefined when none is left. */
  takeHeld(subscriptionId: string): HeldEntry | undefined {
    const queue = this.#atLimit.get(subscriptionId);
    if (!queue) return undefined;
    const held = queue.entries[queue.next++];
    if (queue.next >= queue.entries.length) this.#atLimit.delete(subscriptionId);
    else if (queue.next > 1024 && queue.next * 2 > queue.entries.length) {
      queue.entries = queue.entries.slice(queue.next); // what was taken goes, now and then
      queue.next = 0;
    }
    return held;
  }

  /** Everything kept, given back (for the heap, on stop). */
  drain(): string[] {
    const ids = [...this.#notTheirTurn.values()].flat();
    for (const queue of this.#atLimit.values()) for (const held of queue.entries.slice(queue.next)) ids.push(held.id);
    this.#notTheirTurn.clear();
    this.#atLimit.clear();
    return ids;
  }
}
