// Turns of the event loop for background delivery: one step at a time, client requests first.
import type { ClientRequests } from './client-requests.ts';

/** The longest a waiter goes before the requests are looked at again. */
const RECHECK_MS = 5;

/**
 * Requests come first (docs/notifications.md, decision 036): background delivery waits until no
 * request has started or ended for `quietMs`, or for its turn, one every `everyMs`. It runs at
 * full speed when the clients pause, and a step at a time, ten a second, while they do not. Quiet is longer than a busy machine keeps a client that
 * sends one request after another off the CPU: with 2 ms, such gaps let 3 times as many delivery
 * steps in, each one a webhook the client's own process may have to receive.
 */
export const REQUESTS_FIRST = { quietMs: 20, everyMs: 100 } as const;

/** How turns give way to client requests: see LoopTurns. */
export interface TurnPacing {
  requests: ClientRequests;
  /** A turn waits until no request has started or ended for this long… */
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
  /** Waiters of `quiet()`, each with the time it goes at the latest. */
  readonly #quiet: Array<{ release: () => void; latestMs: number }> = [];
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

  /**
   * Resolves once the server has been quiet for `quietMs`, or `everyMs` from now at the latest; at
   * once without pacing. Work that may as well ride along with the requests' own (a commit: theirs
   * write what changed meanwhile) waits for this rather than for a turn.
   */
  quiet(): Promise<void> {
    const p = this.#pacing;
    if (!p || p.requests.untilQuiet(p.quietMs) <= 0) return Promise.resolve();
    return new Promise<void>((release) => {
      this.#quiet.push({ release, latestMs: performance.now() + p.everyMs });
      this.#arm();
    });
  }

  #arm(): void {
    if (this.#armed) return;
    this.#armed = true;
    setImmediate(() => this.#check());
  }

  #check(): void {
    this.#armed = false;
    const p = this.#pacing;
    const now = performance.now();
    const untilQuiet = p ? p.requests.untilQuiet(p.quietMs, now) : 0;
    let wait = Number.POSITIVE_INFINITY;
    if (this.#quiet.length > 0) {
      for (const q of this.#quiet.splice(0)) {
        if (untilQuiet <= 0 || q.latestMs <= now) q.release();
        else {
          this.#quiet.push(q);
          wait = Math.min(wait, untilQuiet, q.latestMs - now);
        }
      }
    }
    if (this.#waiting.length > 0) {
      const turnIn = p ? Math.min(untilQuiet, this.#lastTurnMs + p.everyMs - now) : 0;
      if (turnIn <= 0) {
        this.#lastTurnMs = now;
        this.#waiting.shift()?.();
        // Armed from inside a check-phase callback: the next release waits for the next iteration.
        if (this.#waiting.length > 0) wait = 0;
      } else wait = Math.min(wait, turnIn);
    }
    if (wait === 0) this.#arm();
    else if (wait < Number.POSITIVE_INFINITY) {
      // Looked at again soon rather than at the end of the wait: a request in flight may end first.
      this.#armed = true;
      setTimeout(() => this.#check(), Math.min(Math.ceil(wait), RECHECK_MS));
    }
  }
}
