// How long the outbox keeps what it has finished with. Every notification carries the whole
// resource it announces and every attempt is logged, and the store writes the whole data file on
// each commit: a simulator left running for weeks would otherwise grow without end and slow every
// write. Pending entries, and the attempts of pending entries, are never pruned.

/** What the outbox keeps of finished deliveries (delivered, abandoned, cancelled) and their attempts. */
export interface DeliveryRetention {
  /** Wall time a finished delivery is kept after it finished (default 7 days). */
  maxAgeMs: number;
  /** Finished deliveries kept at most; the ones that finished first go first (default 10,000). */
  maxFinished: number;
}

export const DEFAULT_DELIVERY_RETENTION: DeliveryRetention = { maxAgeMs: 7 * 24 * 3_600_000, maxFinished: 10_000 };

/** A retention given as a runtime option, the fields left out taken from the default; throws naming a bad field. */
export function retentionFrom(given: Partial<DeliveryRetention>): DeliveryRetention {
  const r = { ...DEFAULT_DELIVERY_RETENTION, ...given };
  if (!(Number.isFinite(r.maxAgeMs) && r.maxAgeMs > 0))
    throw new Error(`delivery retention maxAgeMs must be a positive number of milliseconds, got ${r.maxAgeMs}`);
  if (!(Number.isInteger(r.maxFinished) && r.maxFinished >= 0))
    throw new Error(`delivery retention maxFinished must be a whole number ≥ 0, got ${r.maxFinished}`);
  return r;
}
