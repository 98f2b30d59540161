import type { ClientRequests } from './client-requests.ts';

/** The longest a waiting turn goes before it looks at the requests again. */
const RECHECK_MS = 5;

/** How turns give way to client requests: see LoopTurns. */
export interface TurnPacing {
  requests: ClientRequests;
  /** A turn waits until no request has been answered for this long… */
  quietMs: number;
  /** …or until this long has passed since the last turn: background work is slowed, never stopped. */
  everyMs: number;
}

/**
 * Hands out turns of the event loop one at a time: each waiter is released in its own
 * iteration, so the I/O between iterations (requests being answered) runs between two waiters.
 * Plain `setImmediate` is not enough: callbacks queued together all run in one check phase.
 * With `pacing`, client requests come first: while they are being answered a turn is given only
 * every `everyMs`, and at once when the server has been quiet for `quietMs`.
 */
export class LoopTurns {
  readonly #waiting: Array<() => void> = [];
  readonly #pacing: TurnPacing | undefined;
  #armed = false;
  #lastTurnMs = Number.NEGATIVE_INFINITY;

  constructor(pacing?: TurnPacing) {
    this.#pacing = pacing;
  }

  /** Resolves in an iteration of the event loop of its own. */
  next(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      this.#arm();
    });
  }

  #arm(): void {
    if (this.#armed) return;
    this.#armed = true;
    setImmediate(() => this.#turn());
  }

  #turn(): void {
    this.#armed = false;
    if (this.#waiting.length === 0) return;
    const p = this.#pacing;
    if (p) {
      const now = performance.now();
      const wait = Math.min(p.requests.untilQuiet(p.quietMs, now), this.#lastTurnMs + p.everyMs - now);
      if (wait > 0) {
        // Looked at again soon rather than at the end of the wait: a request in flight may end first.
        this.#armed = true;
        setTimeout(() => this.#turn(), Math.min(Math.ceil(wait), RECHECK_MS));
        return;
      }
      this.#lastTurnMs = now;
    }
    this.#waiting.shift()?.();
    // Armed from inside a check-phase callback: the next release waits for the next iteration.
    if (this.#waiting.length > 0) this.#arm();
  }
}
