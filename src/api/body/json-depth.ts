/**
 * The deepest nesting of objects and arrays a JSON request body may have. The simulator's choice
 * (docs/api.md, "Request bodies"): Form3's models nest a few levels (a claim's attributes hold
 * objects in arrays: 5 in all), and every walk over a body (null stripping, copies, schema checks,
 * the journal's JSON) then runs over a bounded depth, far from the call stack's end.
 */
export const MAX_JSON_DEPTH = 64;

/** The 400's message: what was refused, and the limit. */
export const JSON_TOO_DEEP = `request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep (the limit is ${MAX_JSON_DEPTH})`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * True when the text nests `[` and `{` (outside strings) more than `limit` levels deep. One linear
 * pass over the text before it is parsed: strings are skipped with indexOf, so a long string costs
 * little, and nothing recursive ever sees a body that is too deep. Malformed JSON is left to the
 * parser (a stray closer only lowers the count).
 */
export function nestedDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  if (text.length <= limit) return false; // too short to open limit + 1 levels
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) return false; // an unterminated string: the parser refuses it
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** The index of the quote that ends the string opened at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  while (at !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}
