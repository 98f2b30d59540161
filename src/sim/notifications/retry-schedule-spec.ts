// How often a failed delivery is tried again is the user's to choose (`--retry-schedule`): the reader
// of that option, refusing a schedule it cannot follow.
import { DEFAULT_RETRY_SCHEDULE, FAST_RETRY_SCHEDULE, type RetrySchedule } from './retry-schedule.ts';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;
/** The longest delay or give-up time a schedule may name: a week, as the outbox keeps a week. */
const MAX_MS = 7 * 24 * 3_600_000;

/** `0`, `250ms`, `5s`, `2m`, `1h` (a bare number is seconds); throws naming the entry. */
function duration(text: string, what: string): number {
  const m = DURATION.exec(text.trim());
  if (!m) throw new Error(`${what} "${text}" is not a duration such as 0, 250ms, 5s, 2m or 1h`);
  const ms = Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 's']!);
  if (ms > MAX_MS) throw new Error(`${what} "${text}" is longer than a week`);
  return ms;
}

/**
 * The retry schedule `--retry-schedule` names: `default` (0 s, 5 s, 30 s, 2 min, 10 min, 1 h, then
 * hourly for 24 h), `fast` (milliseconds, for tests), or a list of waits before each attempt,
 * comma-separated, whose last wait repeats, with an optional give-up time after a slash:
 * `0,1s,5s,30s/10m`. Without one, it gives up after 24 hours as the default does.
 */
export function parseRetrySchedule(spec: string): RetrySchedule {
  const text = spec.trim();
  if (text === 'default') return DEFAULT_RETRY_SCHEDULE;
  if (text === 'fast') return FAST_RETRY_SCHEDULE;
  const [list = '', giveUp, ...rest] = text.split('/');
  if (rest.length > 0) throw new Error(`"${spec}" has more than one "/" (the give-up time)`);
  const entries = list.split(',');
  if (entries.some((e) => e.trim() === ''))
    throw new Error(`"${spec}" must be default, fast, or waits such as 0,1s,5s,30s (optionally /10m to give up)`);
  const delaysMs = entries.map((e, i) => duration(e, `wait ${i + 1}`));
  const giveUpAfterMs = giveUp === undefined ? DEFAULT_RETRY_SCHEDULE.giveUpAfterMs : duration(giveUp, 'give-up time');
  if (giveUpAfterMs === 0) throw new Error('the give-up time must be more than 0');
  return {
    delaysMs,
    repeatMs: Math.max(delaysMs[delaysMs.length - 1]!, 1),
    giveUpAfterMs,
    jitter: DEFAULT_RETRY_SCHEDULE.jitter,
  };
}
