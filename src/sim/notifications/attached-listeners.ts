/**
 * The subscriptions a live listener holds (`scheme-sim listen`, while its stream to the simulator
 * is open). A reset keeps them: they belong to the tool watching the simulator, not to the data a
 * test resets, and a reset that dropped them would lose every notification until the listener had
 * made them again (docs/decisions, "listen survives a reset").
 */
export class AttachedListeners {
  /** Subscription id → how many open streams hold it. */
  readonly #held = new Map<string, number>();

  /** Holds the subscriptions until the returned release is called (once). */
  attach(ids: readonly string[]): () => void {
    for (const id of ids) this.#held.set(id, (this.#held.get(id) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const id of ids) {
        const n = (this.#held.get(id) ?? 1) - 1;
        if (n > 0) this.#held.set(id, n);
        else this.#held.delete(id);
      }
    };
  }

  holds(id: string): boolean {
    return this.#held.has(id);
  }

  get size(): number {
    return this.#held.size;
  }
}
