/**
 * Every number the name matcher decides with (docs/cop.md explains each). Each simulator has its
 * own (SimulatorOptions.matchThresholds, over DEFAULT_THRESHOLDS): nothing here is shared state.
 *
 * A name token that is not equal, not an initial, not a nickname and not a shortened form can
 * still be a typo: it counts as close when BOTH its Jaro-Winkler similarity reaches
 * `typoMinJaroWinkler` AND its Damerau-Levenshtein distance is within the edits allowed for the
 * shorter token's length. Jaro-Winkler alone rates long shared prefixes too highly (Smith /
 * Smithers is 0.93), the edit distance alone is too lenient for short names (Tom / Tim is 1).
 */
export interface MatchThresholds {
  /** Minimum Jaro-Winkler similarity of a typo (0..1). */
  readonly typoMinJaroWinkler: number;
  /**
   * Edits allowed in a typo by the length of the shorter token, by ascending `minLength`; shorter
   * than the first entry: none.
   */
  readonly typoEditsByLength: ReadonlyArray<{ readonly minLength: number; readonly edits: number }>;
  /** Jaro-Winkler prefix scale (the usual 0.1) and the longest prefix it rewards (4). */
  readonly jaroWinklerPrefixScale: number;
  readonly jaroWinklerMaxPrefix: number;
  /** A forename shortened to its start (Sam / Samantha) must keep at least this many letters. */
  readonly shortenedMinLength: number;
}

export const DEFAULT_THRESHOLDS: MatchThresholds = Object.freeze({
  typoMinJaroWinkler: 0.85,
  typoEditsByLength: Object.freeze([
    Object.freeze({ minLength: 4, edits: 1 }),
    Object.freeze({ minLength: 8, edits: 2 }),
  ]),
  jaroWinklerPrefixScale: 0.1,
  jaroWinklerMaxPrefix: 4,
  shortenedMinLength: 3,
});

/** Edits a typo may have between tokens whose shorter one has `length` letters. */
export function allowedEdits(length: number, thresholds: MatchThresholds): number {
  let edits = 0;
  for (const step of thresholds.typoEditsByLength) if (length >= step.minLength) edits = step.edits;
  return edits;
}

/** `value` when a finite number from `min` to `max` (a whole one when `whole`); else throws naming `name`. */
function checkNumber(name: string, value: unknown, min: number, max: number, whole = false): number {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (whole && !Number.isInteger(value))
  )
    throw new Error(
      `matchThresholds.${name} must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}, got ${JSON.stringify(value) ?? String(value)}`,
    );
  return value;
}

const KEYS = Object.keys(DEFAULT_THRESHOLDS);

/**
 * The defaults with `changes` over them, checked (an Error names the first field out of range or
 * unknown) and frozen: a matcher's results are kept, so its thresholds never change under it.
 */
export function matchThresholds(changes: Partial<MatchThresholds> = {}): MatchThresholds {
  if (typeof changes !== 'object' || changes === null || Array.isArray(changes))
    throw new Error('matchThresholds must be an object of thresholds');
  for (const key of Object.keys(changes))
    if (!KEYS.includes(key)) throw new Error(`matchThresholds.${key} is not a threshold (${KEYS.join(', ')})`);
  const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const t = { ...DEFAULT_THRESHOLDS, ...given };
  const steps: unknown = t.typoEditsByLength;
  if (!Array.isArray(steps) || steps.length > 8)
    throw new Error('matchThresholds.typoEditsByLength must be an array of at most 8 { minLength, edits }');
  let previous = 0;
  const typoEditsByLength = steps.map((step: unknown, i) => {
    const at = `typoEditsByLength[${i}]`;
    if (typeof step !== 'object' || step === null)
      throw new Error(`matchThresholds.${at} must be { minLength, edits }`);
    const { minLength, edits } = step as Record<string, unknown>;
    const min = checkNumber(`${at}.minLength`, minLength, previous + 1, 1000, true);
    previous = min;
    return Object.freeze({ minLength: min, edits: checkNumber(`${at}.edits`, edits, 0, 10, true) });
  });
  const scale = checkNumber('jaroWinklerPrefixScale', t.jaroWinklerPrefixScale, 0, 0.25);
  const maxPrefix = checkNumber('jaroWinklerMaxPrefix', t.jaroWinklerMaxPrefix, 0, 10, true);
  // Jaro-Winkler stays within 0..1 only while scale × prefix ≤ 1; a product over 1 by rounding
  // alone (0.1 written as 0.10000000000000002, × 10) is 1 as a client meant it.
  if (scale * maxPrefix > 1 + 1e-12)
    throw new Error(
      `matchThresholds.jaroWinklerPrefixScale × jaroWinklerMaxPrefix must be at most 1, got ${scale} × ${maxPrefix}`,
    );
  return Object.freeze({
    typoMinJaroWinkler: checkNumber('typoMinJaroWinkler', t.typoMinJaroWinkler, 0, 1),
    typoEditsByLength: Object.freeze(typoEditsByLength),
    jaroWinklerPrefixScale: scale,
    jaroWinklerMaxPrefix: maxPrefix,
    shortenedMinLength: checkNumber('shortenedMinLength', t.shortenedMinLength, 1, 100, true),
  });
}
