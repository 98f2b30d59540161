// A generated name verification asks the target's known account, so the matcher's answer is about
// the name: the held name, a typo of it (a close match for the double) or the name as generated.
import { describe, expect, it } from 'vitest';
import { putInContext, typoOf } from './body-context.ts';

const CONTEXT = { organisationId: 'org', bank: { sort_code: '040004', bic: 'NWBKGB2L' } };
const ACCOUNT = { identification: '40030012345678', accountType: 'Personal' };

describe('a name verification in context', () => {
  it('has a typo: the last two different letters swapped', () => {
    expect(typoOf('Samantha Holder')).toBe('Samantha Holdre');
    expect(typoOf('Anna Hall')).toBe('Anna Hlal');
    expect(typoOf('X')).toBe('X');
  });

  it('asks the known account, by the name given, else by the name generated', () => {
    const generated = () => ({
      Data: {
        SchemeName: 'SortCodeAccountNumber',
        AccountType: 'Business',
        Identification: '1',
        Name: 'Zq',
        SecondaryIdentification: 'r',
      },
    });
    const random = () => 0.5;
    expect(
      putInContext(
        'name-verification-request',
        generated(),
        { ...CONTEXT, nameVerification: { ...ACCOUNT, name: 'Samantha Holdre' } },
        random,
      ),
    ).toEqual({
      Data: {
        SchemeName: 'SortCodeAccountNumber',
        AccountType: 'Personal',
        Identification: '40030012345678',
        Name: 'Samantha Holdre',
      },
    });
    expect(
      putInContext('name-verification-request', generated(), { ...CONTEXT, nameVerification: ACCOUNT }, random).Data
        .Name,
    ).toBe('Zq');
    expect(putInContext('name-verification-request', generated(), CONTEXT, random)).toEqual(generated());
  });
});
