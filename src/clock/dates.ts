// Pure YYYY-MM-DD arithmetic. Dates are compared as strings (ISO order is calendar order) only
// inside the supported range, where every date has exactly four year digits.

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/**
 * The dates the simulator supports: London dates in the years 1900–2199. Every date a client sends
 * and every date the calendar computes stays inside it; arithmetic that would leave it throws a
 * DateRangeError instead of producing a date no YYYY-MM-DD string can hold.
 */
export const SUPPORTED_YEARS = { first: 1900, last: 2199 } as const;
export const FIRST_DATE = `${SUPPORTED_YEARS.first}-01-01`;
export const LAST_DATE = `${SUPPORTED_YEARS.last}-12-31`;
/** The supported range as messages name it. */
export const SUPPORTED_RANGE = `${FIRST_DATE} to ${LAST_DATE}`;

const FIRST_MS = Date.UTC(SUPPORTED_YEARS.first, 0, 1);
const LAST_MS = Date.UTC(SUPPORTED_YEARS.last, 11, 31);

/** Date arithmetic that would leave the supported range (or was given a date outside it). */
export class DateRangeError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'DateRangeError';
  }
}

/**
 * Why `s` is not a supported date, or undefined when it is one: `must be a date (YYYY-MM-DD)` for a
 * malformed or impossible date (2027-02-30), `must be a date from … to …` for one outside the range.
 */
export function dateProblem(s: string): string | undefined {
  const m = typeof s === 'string' ? DATE_RE.exec(s) : null;
  if (!m) return 'must be a date (YYYY-MM-DD)';
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Checked before Date.UTC, which maps the years 0–99 to 1900–1999.
  if (year < SUPPORTED_YEARS.first || year > SUPPORTED_YEARS.last) return `must be a date from ${SUPPORTED_RANGE}`;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return 'must be a date (YYYY-MM-DD)';
  return undefined;
}

/** A real YYYY-MM-DD date inside the supported range. */
export function isIsoDate(s: string): boolean {
  return dateProblem(s) === undefined;
}

/** Milliseconds of a supported date at 00:00 UTC; throws DateRangeError for anything else. */
function msOf(date: string): number {
  const problem = dateProblem(date);
  if (problem) throw new DateRangeError(`${String(date)} ${problem}`);
  return Date.parse(`${date}T00:00:00Z`);
}

/** `date` plus n calendar days; throws DateRangeError when either date is outside the range. */
export function addDays(date: string, n: number): string {
  if (!Number.isInteger(n)) throw new RangeError(`days must be an integer, got ${n}`);
  const ms = msOf(date) + n * DAY_MS;
  if (ms < FIRST_MS || ms > LAST_MS) {
    throw new DateRangeError(
      `${date} ${n >= 0 ? '+' : '-'} ${Math.abs(n)} days is outside the dates the simulator supports (${SUPPORTED_RANGE})`,
    );
  }
  return new Date(ms).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier); both must be supported dates. */
export function daysBetween(from: string, to: string): number {
  return Math.round((msOf(to) - msOf(from)) / DAY_MS);
}

/** 0 = Sunday … 6 = Saturday */
export function dayOfWeek(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

export function isWeekend(date: string): boolean {
  const d = dayOfWeek(date);
  return d === 0 || d === 6;
}

/** The first and last instants whose London date is supported (London kept GMT at both ends). */
export const FIRST_INSTANT_MS = FIRST_MS;
export const END_INSTANT_MS = LAST_MS + DAY_MS; // exclusive

/** Whether an instant's London date lies inside the supported range. */
export function isSupportedInstant(instant: Date): boolean {
  const ms = instant.getTime();
  return ms >= FIRST_INSTANT_MS && ms < END_INSTANT_MS;
}
