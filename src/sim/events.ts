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

  emit(event: RecordEvent): void {
    for (const l of this.#listeners) l(event);
  }
}
