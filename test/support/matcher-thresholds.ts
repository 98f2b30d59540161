// Test data: notches of the name matcher's thresholds (src/sim/cop/thresholds.ts). A test starts
// a simulator with one of them as its own (RuntimeOptions.matchThresholds); nothing is moved in
// the process, so other simulators in it keep theirs.
import type { MatchThresholds } from '../../src/sim/cop/thresholds.ts';

/**
 * A notch either side of each threshold: what a matcher with slightly different, equally
 * defensible numbers would use. A corpus case whose answer changes under one of these depends on
 * the simulator's own thresholds, not only on the account it registers.
 */
export const THRESHOLD_NOTCHES: ReadonlyArray<{ name: string; changes: Partial<MatchThresholds> }> = [
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
function editsFrom(one: number, two: number): Partial<MatchThresholds> {
  return {
    typoEditsByLength: [
      { minLength: one, edits: 1 },
      { minLength: two, edits: 2 },
    ],
  };
}
