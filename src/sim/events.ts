// Every change of a record is announced, so notifications, scenarios and the live log react without
// the repositories knowing them: the event and its synchronous bus.
import type { Resource } from './resource.ts';

export type EventType = 'created' | 'updated' | 'deleted';

/** Emitted for every change of a record. */
export interface RecordEvent {
  event_type: EventType;
  record_type: string;
  record: Resource<object>;
}

type Listener = (event: RecordEvent) => void;

/**
 * Synchronous fan-out of record changes. Listeners run inside the change (and so inside the same
 * commit); anything slow (HTTP delivery) must be queued by the listener, never done inline.
 */
export class EventBus {
  readonly #listeners = new Set<Listener>();

  on(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Events held by `together`, or undefined when they go out at once. */
  #held: RecordEvent[] | undefined;

  emit(event: RecordEvent): void {
    if (this.#held) this.#held.push(event);
    else for (const l of this.#listeners) l(event);
  }

  /**
   * Runs `work` holding its events back until it returns, then emits them in order: records made
   * together that name each other (a Report and its Report Admission) are each announced with the
   * other already there. When `work` throws, its events are dropped with it (its caller undoes the
   * change: Store.atomically).
   */
  together<T>(work: () => T): T {
    if (this.#held) return work();
    const held: RecordEvent[] = [];
    this.#held = held;
    let result: T;
    try {
      result = work();
    } finally {
      this.#held = undefined;
    }
    for (const event of held) this.emit(event);
    return result;
  }
}
