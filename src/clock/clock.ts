/** The one source of "now" for everything in the simulator. */
export interface Clock {
  now(): Date;
}

/** Wall time. Used for things that must not follow the scheme clock (token expiry, delivery retries). */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; handy in unit tests. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string = '2026-01-05T09:00:00.000Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  set(to: Date | string): void {
    this.#ms = new Date(to).getTime();
  }
  advanceMs(ms: number): void {
    this.#ms += ms;
  }
}

/** ISO 8601 UTC with millisecond precision, the format of every created_on / modified_on. */
export function isoTimestamp(d: Date): string {
  return d.toISOString();
}
