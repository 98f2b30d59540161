/**
 * A quick yes for the date-times scheme-sim writes itself (`2026-12-21T09:00:00.000Z`): the load
 * check of a store asks it twice per record, two million times at a million accounts, and
 * ajv-formats' full check (a split, two regular expressions) costs a second or more of start-up.
 * Only a yes is quick: any other string, valid or not, goes to the full check, so what passes and
 * what fails is exactly what ajv-formats says.
 */
export function plainUtcDateTime(s: string): boolean {
  // YYYY-MM-DDTHH:MM:SS, optional .fraction, Z
  const n = s.length;
  if (n < 20 || s.charCodeAt(n - 1) !== 90 /* Z */) return false;
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84) return false;
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  for (const i of DIGITS) if (!isDigit(s.charCodeAt(i))) return false;
  if (n > 20) {
    if (s.charCodeAt(19) !== 46 /* . */ || n === 21) return false;
    for (let i = 20; i < n - 1; i++) if (!isDigit(s.charCodeAt(i))) return false;
  }
  const year = num(s, 0, 4);
  const month = num(s, 5, 2);
  const day = num(s, 8, 2);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month];
  // A leap second (…:60) is not a quick yes: the full check decides it.
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= (days ?? 0) &&
    num(s, 11, 2) <= 23 &&
    num(s, 14, 2) <= 59 &&
    num(s, 17, 2) <= 59
  );
}

const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function num(s: string, at: number, len: number): number {
  let v = 0;
  for (let i = at; i < at + len; i++) v = v * 10 + (s.charCodeAt(i) - 48);
  return v;
}
