import { describe, expect, it } from 'vitest';
import { NORTHWIND, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';
import { inBehaviour } from '../accounts.ts';
import { decide } from './decide.ts';
import { NameMatcher } from './match.ts';
import { accountCandidates, candidateSet, parseRequestName, splitHolders } from './names.ts';
import { DEFAULT_THRESHOLDS } from './thresholds.ts';

const NORTHWIND_PARTICIPANT = '0015800001041REAAY';

const matcher = new NameMatcher();
const matchName = (requestName: string, account: Parameters<NameMatcher['matchName']>[1]) =>
  matcher.matchName(requestName, account);

const personal = (name: string[], extra = {}) => ({
  name,
  account_classification: 'Personal' as const,
  joint_account: false,
  ...extra,
});

describe('name parsing and candidates', () => {
  it('reads the structured form only when the first part is empty or a title', () => {
    expect(parseRequestName('Mrs, Samantha Jane, Holder').whole).toMatchObject({
      words: ['samantha', 'jane', 'holder'],
      surnameAt: 2,
    });
    expect(parseRequestName(',,Acme Ltd').whole.words).toEqual(['acme', 'ltd']);
    expect(parseRequestName('Acme, Widgets, Ltd').holders).toHaveLength(1);
    expect(parseRequestName('Acme, Widgets, Ltd').whole.words).toEqual(['acme', 'widgets', 'ltd']);
  });

  it('splits holders and lends the surname to a lone forename', () => {
    expect(splitHolders(['john', 'and', 'jane', 'smith'])).toEqual([
      ['john', 'smith'],
      ['jane', 'smith'],
    ]);
    expect(splitHolders(['mr', 'and', 'mrs', 'j', 'smith'])).toEqual([['j', 'smith']]);
  });

  it('lists holder, joint holders, T/A sides, charity name and alternatives', () => {
    const joint = accountCandidates({ ...personal(['Mr John Smith & Mrs Jane Smith']), joint_account: true });
    expect(joint.filter((c) => c.holder).map((c) => c.display)).toEqual(['Mr John Smith', 'Mrs Jane Smith']);
    const ta = accountCandidates({
      name: ['Priya Shah t/a Shah Designs'],
      account_classification: 'Business',
      joint_account: false,
    });
    expect(ta.map((c) => c.words.join(' '))).toEqual(['priya shah t a shah designs', 'priya shah', 'shah designs']);
    const charity = accountCandidates({
      name: ['Hope Trust (R/C 123456)'],
      alternative_names: ['HT'],
      account_classification: 'Business',
      joint_account: false,
    });
    expect(charity.map((c) => [c.words.join(' '), c.closeOnly])).toEqual([
      ['hope trust r c 123456', false],
      ['hope trust', true],
      ['ht', false],
    ]);
    expect(accountCandidates(personal([]))).toEqual([]);
  });

  it('keeps a hyphenated surname as one surname', () => {
    expect(matchName('Anna Smith', personal(['Anna Smith-Jones']))).toEqual({
      level: 'close',
      name: 'Anna Smith-Jones',
    });
    expect(matchName('Anna Brown', personal(['Anna Smith-Jones']))).toEqual({ level: 'none' });
  });
});

describe('decide', () => {
  const request = { accountType: 'Personal' as const, identification: '40030212345678', name: 'Anyone' };
  it('answers ACNS for an account without a name', () => {
    const account = inBehaviour({ account_classification: 'Personal' });
    expect(decide({ served: true, account, request, matcher })).toEqual({ Matched: false, ReasonCode: 'ACNS' });
  });
  it('returns at most 140 characters of Name', () => {
    const account = inBehaviour({ name: ['Samantha', `Holder${'x'.repeat(200)}`], account_classification: 'Personal' });
    const report = decide({
      served: true,
      account,
      request: { ...request, name: 'Sam Holder' + 'x'.repeat(200) },
      matcher,
    });
    expect(report.ReasonCode).toBe('MBAM');
    expect(report.Name).toBe(`Samantha Holder${'x'.repeat(125)}`);
  });
  it('checks the sort code before the account', () => {
    expect(decide({ served: false, account: undefined, request, matcher })).toEqual({
      Matched: false,
      ReasonCode: 'SCNS',
    });
  });
});

describe('results kept per account', () => {
  it('answers a repeated name as the first time, and reads a changed account afresh', () => {
    const held = personal(['Samantha Holder']);
    const first = matchName('S Holder', held);
    expect(first).toEqual({ level: 'close', name: 'Samantha Holder' });
    expect(matchName('S Holder', held)).toBe(first); // kept, not matched again
    expect(Object.isFrozen(first)).toBe(true);
    // A change of an account stores a new attributes object: its names, not the kept result, decide.
    const renamed = { ...held, name: ['Robert Smith'] };
    expect(matchName('S Holder', renamed)).toEqual({ level: 'none' });
    expect(matchName('Robert Smith', renamed)).toEqual({ level: 'full' });
  });

  it('drops what it kept past 8 names of one account, and answers the same', () => {
    const held = personal(['Samantha Holder']);
    const first = matchName('S Holder', held);
    for (let i = 0; i < 8; i++) matchName(`Other Person${i}`, held);
    // Dropped: no longer among the account's kept results (a close result is one frozen object
    // per account and name, so the answer's identity does not tell).
    expect(candidateSet(held).kept?.results.has('S Holder')).toBe(false);
    const again = matchName('S Holder', held);
    expect(again).toEqual(first);
    expect(candidateSet(held).kept?.results.get('S Holder')).toBe(again);
  });

  it('keeps answering rightly past the number of names it keeps', () => {
    const held = personal(['Samantha Holder']);
    const asked = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'Samantha Holder' : `Someone Else${i}`));
    for (const name of [...asked, ...asked])
      expect(matchName(name, held).level).toBe(name === 'Samantha Holder' ? 'full' : 'none');
  });
});

describe('a matcher per simulator', () => {
  // Smyth / Smith: Jaro-Winkler 0.89, one edit in five letters. A typo at 0.85, not at 0.95.
  const smith = () => personal(['John Smith']);

  it('answers by its own thresholds', () => {
    const lenient = new NameMatcher({ typoMinJaroWinkler: 0.85 });
    const strict = new NameMatcher({ typoMinJaroWinkler: 0.95 });
    expect(lenient.matchName('John Smyth', smith())).toEqual({ level: 'close', name: 'John Smith' });
    expect(strict.matchName('John Smyth', smith())).toEqual({ level: 'none' });
    expect(new NameMatcher().thresholds).toEqual(DEFAULT_THRESHOLDS);
  });

  it('never answers from what another matcher kept, whichever asks first', () => {
    const account = smith(); // one attributes object: one candidate set, as a stored account
    const lenient = new NameMatcher({ typoMinJaroWinkler: 0.85 });
    const strict = new NameMatcher({ typoMinJaroWinkler: 0.95 });
    const close = lenient.matchName('John Smyth', account);
    expect(close).toEqual({ level: 'close', name: 'John Smith' });
    expect(strict.matchName('John Smyth', account)).toEqual({ level: 'none' });
    // Each kept its own result: asked again, each answers as before, the same frozen object.
    expect(lenient.matchName('John Smyth', account)).toBe(close);
    const other = smith();
    expect(strict.matchName('John Smyth', other)).toEqual({ level: 'none' });
    expect(lenient.matchName('John Smyth', other)).toEqual({ level: 'close', name: 'John Smith' });
  });

  it('keeps the results of at most two matchers on an account (docs/cop.md)', () => {
    const account = smith();
    const matchers = [0.85, 0.9, 0.95].map((typoMinJaroWinkler) => new NameMatcher({ typoMinJaroWinkler }));
    for (const m of matchers) m.matchName('John Smyth', account);
    const owners: object[] = [];
    for (let kept = candidateSet(account).kept; kept; kept = kept.next) owners.push(kept.owner);
    expect(owners).toHaveLength(2);
    expect(owners[0]).toBe(matchers[2]);
    expect(owners[1]).toBe(matchers[1]);
    expect(matchers[0]!.matchName('John Smyth', account)).toEqual({ level: 'close', name: 'John Smith' });
  });

  it('keeps thresholds that cannot change under its kept results', () => {
    const m = new NameMatcher({ typoMinJaroWinkler: 0.95 });
    expect(Object.isFrozen(m.thresholds)).toBe(true);
    expect(Object.isFrozen(m.thresholds.typoEditsByLength)).toBe(true);
    expect(Object.isFrozen(DEFAULT_THRESHOLDS)).toBe(true);
  });
});

describe('two simulators in one process', () => {
  it('answer the same request by their own thresholds (RuntimeOptions.matchThresholds)', async () => {
    const attributes = { country: 'GB', bank_id: '400300', account_number: '55779921', name: ['John Smith'] };
    const lenient = await testRuntime({ matchThresholds: { typoMinJaroWinkler: 0.85 } });
    const strict = await testRuntime({ matchThresholds: { typoMinJaroWinkler: 0.95 } });
    try {
      for (const rt of [lenient, strict])
        rt.sim.accounts.create({ id: crypto.randomUUID(), organisation_id: NORTHWIND.organisation_id, attributes });
      const ask = (rt: TestRuntime) =>
        rt.sim.nameVerification.matchName(NORTHWIND_PARTICIPANT, {
          accountType: 'Personal',
          identification: '40030055779921',
          name: 'John Smyth',
        });
      expect(ask(lenient)).toEqual({ Matched: false, ReasonCode: 'MBAM', Name: 'John Smith' });
      expect(ask(strict)).toEqual({ Matched: false, ReasonCode: 'ANNM' });
      expect(ask(lenient)).toEqual({ Matched: false, ReasonCode: 'MBAM', Name: 'John Smith' });
    } finally {
      await Promise.all([lenient.close(), strict.close()]);
    }
  });

  it('refuse thresholds out of range, naming the field', async () => {
    await expect(testRuntime({ matchThresholds: { typoMinJaroWinkler: 1.5 } })).rejects.toThrow(
      /matchThresholds\.typoMinJaroWinkler must be a number from 0 to 1, got 1\.5/,
    );
  });
});
