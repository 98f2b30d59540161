/**
 * Every number the name matcher decides with, in one place (docs/cop.md explains each).
 *
 * A name token that is not equal, not an initial, not a nickname and not a shortened form can
 * still be a typo: it counts as close when BOTH its Jaro-Winkler similarity reaches
 * `typoMinJaroWinkler` AND its Damerau-Levenshtein distance is within the edits allowed for the
 * shorter token's length. Jaro-Winkler alone rates long shared prefixes too highly (Smith /
 * Smithers is 0.93), the edit distance alone is too lenient for short names (Tom / Tim is 1).
 */
export const THRESHOLDS = {
  /** Minimum Jaro-Winkler similarity of a typo (0..1). */
  typoMinJaroWinkler: 0.85,
  /** Edits allowed in a typo by the length of the shorter token; shorter than the first entry: none. */
  typoEditsByLength: [
    { minLength: 4, edits: 1 },
    { minLength: 8, edits: 2 },
  ],
  /** Jaro-Winkler prefix scale (the usual 0.1) and the longest prefix it rewards (4). */
  jaroWinklerPrefixScale: 0.1,
  jaroWinklerMaxPrefix: 4,
  /** A forename shortened to its start (Sam / Samantha) must keep at least this many letters. */
  shortenedMinLength: 3,
} as const;

/** Edits a typo may have between tokens whose shorter one has `length` letters. */
export function allowedEdits(length: number): number {
  let edits = 0;
  for (const step of THRESHOLDS.typoEditsByLength) if (length >= step.minLength) edits = step.edits;
  return edits;
}
