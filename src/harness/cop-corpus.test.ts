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

  it('is one scenario per case in features/name_verification.feature (Examples rows are the case ids)', () => {
    const feature = readFileSync(
      join(import.meta.dirname, '..', '..', 'features', 'name_verification.feature'),
      'utf8',
    );
    const outline = feature.slice(feature.indexOf('Scenario Outline: corpus case <case>'));
    const rest = outline.slice(outline.indexOf('| case |') + '| case |'.length);
    const table = rest.slice(0, rest.indexOf('\n\n'));
    const rows = table
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .map((l) => l.replace(/^\|\s*|\s*\|$/g, ''));
    expect(rows).toEqual(corpus.cases.map((c) => c.id));
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
