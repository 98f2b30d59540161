// Client requests come first: the server counts the requests it is answering, and background
// delivery gives way while there are any (docs/notifications.md, "Requests come first").

/**
 * How long a request in flight counts as being answered. Past it, only its start and end do: an
 * event stream stays open for hours, and an advance answers after seconds, in slices of its own.
 */
const LONG_REQUEST_MS = 1000;

/** The requests a server is answering now, and when it last started and finished one (performance.now(), ms). */
export class ClientRequests {
  #inFlight = 0;
  #lastBeginMs = Number.NEGATIVE_INFINITY;
  #lastEndMs = Number.NEGATIVE_INFINITY;

  /** A request came in; `end` is called once when its answer has gone (or its connection closed). */
  begin(): void {
    this.#inFlight++;
    this.#lastBeginMs = performance.now();
  }

  end(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#lastEndMs = performance.now();
  }

  /**
   * Milliseconds until the server will have been quiet for `quietMs` (0: it has been): no request
   * started or finished meanwhile, and none in flight that started less than LONG_REQUEST_MS ago.
   */
  untilQuiet(quietMs: number, nowMs = performance.now()): number {
    const lastActivity = Math.max(this.#lastBeginMs, this.#lastEndMs);
    const held = this.#inFlight > 0 ? this.#lastBeginMs + LONG_REQUEST_MS : Number.NEGATIVE_INFINITY;
    return Math.max(0, lastActivity + quietMs - nowMs, held - nowMs);
  }
}
