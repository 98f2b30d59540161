/**
 * Hands out turns of the event loop one at a time: each waiter is released in its own
 * iteration, so the I/O between iterations (requests being answered) runs between two waiters.
 * Plain `setImmediate` is not enough: callbacks queued together all run in one check phase.
 */
export class LoopTurns {
  readonly #waiting: Array<() => void> = [];
  #armed = false;

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
    setImmediate(() => {
      this.#armed = false;
      this.#waiting.shift()?.();
      // Armed from inside a check-phase callback: the next release waits for the next iteration.
      if (this.#waiting.length > 0) this.#arm();
    });
  }
}
