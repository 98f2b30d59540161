import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadCorpus, materialise } from '../src/harness/cop-corpus.ts';
import { type TestRuntime, testRuntime } from '../src/harness/test-runtime.ts';
import type { MatchThresholds } from '../src/sim/cop/thresholds.ts';
import { THRESHOLD_NOTCHES } from './support/matcher-thresholds.ts';

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

/** The corpus cases a simulator with these thresholds (its own, over the defaults) answers otherwise. */
async function differing(thresholds?: Partial<MatchThresholds>): Promise<string[]> {
  const rt: TestRuntime = await testRuntime(thresholds ? { matchThresholds: thresholds } : {});
  try {
    corpus.cases.forEach((c, i) => {
      const { attributes } = materialise(corpus, c, `3${String(i).padStart(7, '0')}`);
      if (attributes)
        rt.sim.accounts.create({ id: crypto.randomUUID(), organisation_id: corpus.organisation_id, attributes });
    });
    return corpus.cases
      .filter((c, i) => {
        const d = materialise(corpus, c, `3${String(i).padStart(7, '0')}`).body.Data;
        const report = rt.sim.nameVerification.matchName(corpus.participant, {
          accountType: d.AccountType as 'Personal' | 'Business',
          identification: d.Identification,
          name: d.Name,
          secondaryIdentification: d.SecondaryIdentification,
        });
        return !isDeepStrictEqual(report, c.expected);
      })
      .map((c) => c.id);
  } finally {
    await rt.close();
  }
}

describe('the corpus cases run on any target', () => {
  it('are none whose answer a notch of a matcher threshold changes', async () => {
    expect(await differing()).toEqual([]);
    const kept = simulatorOnly();
    const flipped = new Map<string, string[]>();
    // Each notch is a simulator of its own, started with those thresholds.
    for (const notch of THRESHOLD_NOTCHES)
      for (const id of await differing(notch.changes)) flipped.set(id, [...(flipped.get(id) ?? []), notch.name]);
    // The notches do move some answers (else this test could not fail)…
    expect(flipped.size).toBeGreaterThan(0);
    // …and every case they move is kept on the simulator.
    const onAnyTarget = [...flipped]
      .filter(([id]) => !kept.has(id))
      .map(([id, notches]) => `${id}: ${notches.join(', ')}`);
    expect(onAnyTarget).toEqual([]);
  });
});
