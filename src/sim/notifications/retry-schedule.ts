/**
 * When to try a delivery again, in wall time. `delaysMs[i]` is the wait before attempt i+1
 * (attempt 1 is due `delaysMs[0]` after the notification was stored); after the list runs out,
 * every `repeatMs`, until `giveUpAfterMs` has passed since the notification was stored. Each delay
 * is spread by ±`jitter` (a fraction) so many failed deliveries do not retry in lock-step.
 */
export interface RetrySchedule {
  delaysMs: number[];
  repeatMs: number;
  giveUpAfterMs: number;
  jitter: number;
}

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

/** ≈ 0 s, 5 s, 30 s, 2 min, 10 min, 1 h, then hourly up to 24 h. */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  delaysMs: [0, 5 * S, 30 * S, 2 * MIN, 10 * MIN, H],
  repeatMs: H,
  giveUpAfterMs: 24 * H,
  jitter: 0.2,
};

/** A schedule for tests: milliseconds instead of minutes. */
export const FAST_RETRY_SCHEDULE: RetrySchedule = {
  delaysMs: [0, 20, 40, 80],
  repeatMs: 100,
  giveUpAfterMs: 60 * S,
  jitter: 0.2,
};

/** The wait (ms) before attempt number `attempt` (1-based), jittered with `random` ∈ [0, 1). */
export function delayBefore(schedule: RetrySchedule, attempt: number, random: () => number = Math.random): number {
  const base = schedule.delaysMs[attempt - 1] ?? schedule.repeatMs;
  const spread = base * schedule.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(base + spread));
}

/**
 * When attempt `nextAttempt` is due after a failure at `failedAtMs`, or null when the schedule is
 * exhausted (the delivery is abandoned).
 */
export function nextAttemptAt(
  schedule: RetrySchedule,
  storedAtMs: number,
  failedAtMs: number,
  nextAttempt: number,
  random?: () => number,
): number | null {
  const at = failedAtMs + delayBefore(schedule, nextAttempt, random);
  return at - storedAtMs > schedule.giveUpAfterMs ? null : at;
}

/** Checks a schedule given as a runtime option; throws naming the bad field. */
export function checkSchedule(s: RetrySchedule): RetrySchedule {
  const ok = (n: number) => Number.isFinite(n) && n >= 0;
  if (s.delaysMs.length === 0 || !s.delaysMs.every(ok))
    throw new Error('retry schedule delaysMs must be a non-empty list of non-negative numbers');
  if (!ok(s.repeatMs) || s.repeatMs === 0) throw new Error('retry schedule repeatMs must be positive');
  if (!ok(s.giveUpAfterMs)) throw new Error('retry schedule giveUpAfterMs must be non-negative');
  if (!(s.jitter >= 0 && s.jitter < 1)) throw new Error('retry schedule jitter must be in [0, 1)');
  return s;
}
