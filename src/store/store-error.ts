/** The data file cannot be opened, locked, read or written; the message names the file. */
export class StoreError extends Error {}

/**
 * A write of a world this node no longer holds the lease of (a shared double, decision 033): it
 * was refused, nothing of it landed, and another node serves the world within seconds. Answered
 * 503 with Retry-After, so a client retries rather than counting the simulator broken.
 */
export class LeaseLostError extends StoreError {}
