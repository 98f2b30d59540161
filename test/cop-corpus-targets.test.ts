import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCorpus, materialise } from '../src/harness/cop-corpus.ts';
import { testRuntime } from '../src/harness/test-runtime.ts';
import { moveThresholds, THRESHOLD_NOTCHES } from './support/matcher-thresholds.ts';

// Which corpus cases run on any target (features/name_verification_corpus.feature) and which stay
// on the simulator (features/name_verification.feature): a case whose answer changes when a
// threshold of the matcher moves a notch depends on the simulator's own numbers, not only on its
// account, so it must be among those kept on the simulator.

const corpus = loadCorpus();
const FEATURES = join(import.meta.dirname, '..', 'features');

/** The case ids in the Examples of the simulator-only outline. */
function simulatorOnly(): Set<string> {
  const feature = readFileSync(join(FEATURES, 'name_verification.feature'), 'utf8');
  const outline = feature.slice(feature.indexOf('Scenario Outline: corpus case <case>'));
  const rows = outline.slice(0, outline.indexOf('\n  Scenario', 1)).split('\n');
  return new Set(
    rows
      .map((l) => l.trim())
      .filter((l) => /^\|\s*[\w-]+\s*\|$/.test(l) && l !== '| case |')
      .map((l) => l.slice(1, -1).trim()),
  );
}

let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe('the corpus cases run on any target', () => {
  it('are none whose answer a notch of a matcher threshold changes', async () => {
    const rt = await testRuntime();
    corpus.cases.forEach((c, i) => {
      const { attributes } = materialise(corpus, c, `3${String(i).padStart(7, '0')}`);
      if (attributes)
        rt.sim.accounts.create({ id: crypto.randomUUID(), organisation_id: corpus.organisation_id, attributes });
    });
    const answers = () =>
      corpus.cases.filter((c, i) => {
        const d = materialise(corpus, c, `3${String(i).padStart(7, '0')}`).body.Data;
        const report = rt.sim.nameVerification.matchName(corpus.participant, {
          accountType: d.AccountType as 'Personal' | 'Business',
          identification: d.Identification,
          name: d.Name,
          secondaryIdentification: d.SecondaryIdentification,
        });
        return !isDeepStrictEqual(report, c.expected);
      });
    expect(answers().map((c) => c.id)).toEqual([]);
    const kept = simulatorOnly();
    const flipped = new Map<string, string[]>();
    for (const notch of THRESHOLD_NOTCHES) {
      restore = moveThresholds(notch.changes);
      for (const c of answers()) flipped.set(c.id, [...(flipped.get(c.id) ?? []), notch.name]);
      restore();
      restore = undefined;
    }
    // The notches do move some answers (else this test could not fail)…
    expect(flipped.size).toBeGreaterThan(0);
    // …and every case they move is kept on the simulator.
    const onAnyTarget = [...flipped]
      .filter(([id]) => !kept.has(id))
      .map(([id, notches]) => `${id}: ${notches.join(', ')}`);
    expect(onAnyTarget).toEqual([]);
  });
});
