import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCorpus, materialise } from './cop-corpus.ts';
import { testRuntime } from './test-runtime.ts';

const corpus = loadCorpus();
const CODES = ['SCNS', 'AC01', 'ACNS', 'OPTO', 'CASS', 'IVCR', 'MBAM', 'ANNM', 'BANM', 'PANM', 'BAMM', 'PAMM'];

describe('the CoP case corpus (fixtures/cop/cases.json)', async () => {
  const rt = await testRuntime();
  const sim = rt.sim;

  it('has at least 150 cases with unique ids, each with a reason, covering every reason code and a full match', () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(corpus.cases.map((c) => c.id)).size).toBe(corpus.cases.length);
    for (const c of corpus.cases) expect(c.reason.trim(), c.id).not.toBe('');
    const codes = new Set(corpus.cases.map((c) => c.expected.ReasonCode ?? 'full'));
    expect([...codes].sort()).toEqual([...CODES, 'full'].sort());
  });

  it('is one scenario per case: on any target, or on the simulator under the reason why', () => {
    const features = join(import.meta.dirname, '..', '..', 'features');
    const onAnyTarget = examplesOf(readFileSync(join(features, 'name_verification_corpus.feature'), 'utf8'));
    const onSimulator = examplesOf(readFileSync(join(features, 'name_verification.feature'), 'utf8'));
    expect([...onAnyTarget, ...onSimulator].sort()).toEqual(corpus.cases.map((c) => c.id).sort());
    expect(onAnyTarget.length).toBeGreaterThanOrEqual(150);
  });

  it.each(corpus.cases.map((c, i) => [c.id, c, i] as const))('%s', (_id, c, i) => {
    const { attributes, body } = materialise(corpus, c, `1${String(i).padStart(7, '0')}`);
    if (attributes)
      sim.accounts.create({ id: crypto.randomUUID(), organisation_id: corpus.organisation_id, attributes });
    const d = body.Data as {
      AccountType: 'Personal' | 'Business';
      Identification: string;
      Name: string;
      SecondaryIdentification?: string;
    };
    const report = sim.nameVerification.matchName(corpus.participant, {
      accountType: d.AccountType,
      identification: d.Identification,
      name: d.Name,
      secondaryIdentification: d.SecondaryIdentification,
    });
    expect(report, c.reason).toEqual(c.expected);
  });
});

/** The case ids of the Examples tables of a feature's corpus outline (`Scenario Outline: corpus case <case>…`). */
function examplesOf(feature: string): string[] {
  const outline = feature.slice(feature.indexOf('Scenario Outline: corpus case <case>'));
  const end = outline.indexOf('\n  Scenario', 1);
  return (end > 0 ? outline.slice(0, end) : outline)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('|') && l !== '| case |')
    .map((l) => l.replace(/^\|\s*|\s*\|$/g, ''));
}
