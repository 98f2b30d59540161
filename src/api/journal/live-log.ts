// The simulator's live log: each request as the journal records it, each delivery attempt as the
// outbox logs it, each reset as it finishes, handed to whoever follows it (GET /v1/simulator/stream).
// The journal and the outbox are only listened to while someone follows: the journal makes an
// entry at once for a listener, which the name-verification hot path otherwise defers.
import type { DeliveryAttempt } from '../../sim/notifications/outbox.ts';
import type { Simulator } from '../../sim/simulator.ts';
import type { JournalEntry, RequestJournal } from './request-journal.ts';

export type LiveEvent =
  | { kind: 'request'; entry: JournalEntry }
  | { kind: 'delivery'; attempt: DeliveryAttempt }
  /** `organisation_id` undefined: everything was reset (scope all). */
  | { kind: 'reset'; organisation_id?: string };

export class LiveLog {
  readonly #followers = new Set<(e: LiveEvent) => void>();
  readonly #journal: RequestJournal;
  readonly #sim: Simulator;
  #unsubscribe: Array<() => void> = [];

  constructor(journal: RequestJournal, sim: Simulator) {
    this.#journal = journal;
    this.#sim = sim;
    // Reset hooks cannot be removed: this one costs a size check when nobody follows.
    sim.onReset((organisationId) => {
      if (this.#followers.size > 0)
        this.#tell(
          organisationId === undefined ? { kind: 'reset' } : { kind: 'reset', organisation_id: organisationId },
        );
    });
  }

  /** Calls `follower` with every event from now on; returns the unsubscribe. */
  follow(follower: (e: LiveEvent) => void): () => void {
    if (this.#followers.size === 0)
      this.#unsubscribe = [
        this.#journal.onRecord((entry) => this.#tell({ kind: 'request', entry })),
        this.#sim.outbox.onAttempt((attempt) => this.#tell({ kind: 'delivery', attempt })),
      ];
    this.#followers.add(follower);
    return () => {
      if (!this.#followers.delete(follower) || this.#followers.size > 0) return;
      for (const off of this.#unsubscribe) off();
      this.#unsubscribe = [];
    };
  }

  get followers(): number {
    return this.#followers.size;
  }

  #tell(e: LiveEvent): void {
    for (const f of this.#followers) f(e);
  }
}
