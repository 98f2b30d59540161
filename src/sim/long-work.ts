/**
 * The server's long work — an advance of the scheme clock, a reset — runs in slices that give the
 * event loop back, so reads keep being answered while it runs (they see the state of the last
 * slice boundary). Requests that change state wait for it (`idle`), and long work runs one at a
 * time (`exclusive`). docs/decisions/014-long-work-yields.md.
 */
export class LongWork {
  /** The long work running; never rejects. */
  #work: Promise<void> | undefined;
  #kind: string | undefined;

  /** What long work is running ("an advance", "a reset"), or undefined. */
  get running(): string | undefined {
    return this.#kind;
  }

  /** Resolves once no long work runs; at once (no await) when none does. Never rejects. */
  async idle(): Promise<void> {
    while (this.#work) await this.#work;
  }

  /**
   * Runs `fn` as the long work, after the long work before it has finished. It ends, and the gate
   * opens, when `fn` settles, whether it succeeded or failed. When nothing runs, `fn` starts at
   * once (a piece of work that fits in one slice never awaits).
   */
  async exclusive<T>(kind: string, fn: () => Promise<T>): Promise<T> {
    // A loop, not one wait: another waiter may have started its work by the time this one resumes.
    while (this.#work) await this.#work;
    this.#kind = kind;
    let run: Promise<T>;
    try {
      run = fn();
    } catch (err) {
      this.#kind = undefined;
      throw err;
    }
    const done = run.then(
      () => undefined,
      () => undefined,
    );
    this.#work = done;
    try {
      return await run;
    } finally {
      if (this.#work === done) {
        this.#work = undefined;
        this.#kind = undefined;
      }
    }
  }
}
