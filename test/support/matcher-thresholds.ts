// Test-only: moves the name matcher's thresholds (src/sim/cop/thresholds.ts) in this process, for
// a simulator started in it, and puts them back. No product code reads a setting for this: a
// simulator the test starts in its own process (createRuntime + listen) matches with the module's
// THRESHOLDS, so changing them here is how a test makes that simulator diverge from the corpus.
import { THRESHOLDS } from '../../src/sim/cop/thresholds.ts';

/** The thresholds' shape with numbers rather than the literal values `as const` gives them. */
interface Thresholds {
  typoMinJaroWinkler: number;
  typoEditsByLength: ReadonlyArray<{ minLength: number; edits: number }>;
  jaroWinklerPrefixScale: number;
  jaroWinklerMaxPrefix: number;
  shortenedMinLength: number;
}

/** Sets the given thresholds; the function returned restores the values they had. */
export function moveThresholds(changes: Partial<Thresholds>): () => void {
  const mutable = THRESHOLDS as unknown as Record<string, unknown>;
  const before = Object.fromEntries(Object.keys(changes).map((k) => [k, mutable[k]]));
  Object.assign(mutable, changes);
  return () => Object.assign(mutable, before);
}

/**
 * A notch either side of each threshold: what a matcher with slightly different, equally
 * defensible numbers would use. A corpus case whose answer changes under one of these depends on
 * the simulator's own thresholds, not only on the account it registers.
 */
export const THRESHOLD_NOTCHES: ReadonlyArray<{ name: string; changes: Partial<Thresholds> }> = [
  { name: 'typo Jaro-Winkler ≥ 0.80', changes: { typoMinJaroWinkler: 0.8 } },
  { name: 'typo Jaro-Winkler ≥ 0.90', changes: { typoMinJaroWinkler: 0.9 } },
  { name: 'one edit from 3 letters', changes: editsFrom(3, 8) },
  { name: 'one edit from 5 letters', changes: editsFrom(5, 8) },
  { name: 'two edits from 7 letters', changes: editsFrom(4, 7) },
  { name: 'two edits from 9 letters', changes: editsFrom(4, 9) },
  { name: 'shortened forename ≥ 2 letters', changes: { shortenedMinLength: 2 } },
  { name: 'shortened forename ≥ 4 letters', changes: { shortenedMinLength: 4 } },
];

/** One edit allowed from `one` letters, two from `two` (the simulator's: 4 and 8). */
function editsFrom(one: number, two: number): Partial<Thresholds> {
  return {
    typoEditsByLength: [
      { minLength: one, edits: 1 },
      { minLength: two, edits: 2 },
    ],
  };
}
