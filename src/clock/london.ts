// Bacs dates are London dates: a UTC instant near midnight can belong to another calendar day
// in summer (BST, UTC+1). These helpers convert without a timezone library, using Intl.

const fmt = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

export interface LondonParts {
  date: string; // YYYY-MM-DD
  hour: number;
  minute: number;
  second: number;
}

function intlParts(instant: Date): LondonParts {
  const parts: Record<string, string> = {};
  for (const p of fmt.formatToParts(instant)) parts[p.type] = p.value;
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

const HOUR_MS = 3_600_000;
/**
 * London's offset from UTC (ms) by UTC hour. Intl's formatToParts costs microseconds and a
 * two-year advance asks it hundreds of thousands of times; London's offset only ever changes on
 * the hour (01:00 UTC), so one Intl answer per hour is exact. Bounded, so it never grows unchecked.
 */
const offsetByHour = new Map<number, number>();

function offsetAt(ms: number): number {
  const hour = Math.floor(ms / HOUR_MS);
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    const start = hour * HOUR_MS;
    const p = intlParts(new Date(start));
    const [y, m, d] = p.date.split('-').map(Number) as [number, number, number];
    offset = Date.UTC(y, m - 1, d, p.hour, p.minute, p.second) - start;
    if (offsetByHour.size >= 50_000) offsetByHour.clear();
    offsetByHour.set(hour, offset);
  }
  return offset;
}

export function londonParts(instant: Date): LondonParts {
  const ms = instant.getTime();
  // Outside four-digit years (and for an invalid date) Intl answers, or throws, as it always did.
  if (!(ms >= -30_610_224_000_000 && ms < 253_402_300_800_000)) return intlParts(instant);
  const local = new Date(ms + offsetAt(ms));
  return {
    date: local.toISOString().slice(0, 10),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/** The London calendar date (YYYY-MM-DD) of an instant. */
export function londonDate(instant: Date): string {
  return londonParts(instant).date;
}

/** Offset of London from UTC at an instant, in minutes (0 in winter, 60 in summer). */
export function londonOffsetMinutes(instant: Date): number {
  const p = londonParts(instant);
  const asUtc = Date.UTC(
    Number(p.date.slice(0, 4)),
    Number(p.date.slice(5, 7)) - 1,
    Number(p.date.slice(8, 10)),
    p.hour,
    p.minute,
    p.second,
  );
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60000);
}

/** The UTC instant of a London wall time on a London date. */
export function londonTime(date: string, hour: number, minute = 0, second = 0, ms = 0): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d, hour, minute, second, ms);
  let result = guess - londonOffsetMinutes(new Date(guess)) * 60000;
  // Re-check once: the offset at the guess can differ from the offset at the answer near a change.
  const again = guess - londonOffsetMinutes(new Date(result)) * 60000;
  if (again !== result) result = again;
  return new Date(result);
}
