import { describe, expect, it } from 'vitest';
import { decide } from './decide.ts';
import { matchName } from './match.ts';
import { accountCandidates, parseRequestName, splitHolders } from './names.ts';

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
    const account = {
      account_classification: 'Personal' as const,
      joint_account: false,
      account_matching_opt_out: false,
    };
    expect(decide({ served: true, account, request })).toEqual({ Matched: false, ReasonCode: 'ACNS' });
  });
  it('returns at most 140 characters of Name', () => {
    const account = {
      name: ['Samantha', `Holder${'x'.repeat(200)}`],
      account_classification: 'Personal' as const,
      joint_account: false,
      account_matching_opt_out: false,
    };
    const report = decide({ served: true, account, request: { ...request, name: 'Sam Holder' + 'x'.repeat(200) } });
    expect(report.ReasonCode).toBe('MBAM');
    expect(report.Name).toBe(`Samantha Holder${'x'.repeat(125)}`);
  });
  it('checks the sort code before the account', () => {
    expect(decide({ served: false, account: undefined, request })).toEqual({ Matched: false, ReasonCode: 'SCNS' });
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
    const again = matchName('S Holder', held);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('keeps answering rightly past the number of names it keeps', () => {
    const held = personal(['Samantha Holder']);
    const asked = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'Samantha Holder' : `Someone Else${i}`));
    for (const name of [...asked, ...asked])
      expect(matchName(name, held).level).toBe(name === 'Samantha Holder' ? 'full' : 'none');
  });
});
