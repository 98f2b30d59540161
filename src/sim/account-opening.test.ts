import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { AccountOpening } from './account-opening.ts';
import { hasValidCheckDigits } from './iban.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const ORG = NORTHWIND.organisation_id;
const gb = (extra: Record<string, unknown> = {}) => ({
  country: 'GB',
  bank_id: '400300',
  bic: 'NWBKGB22',
  name: ['Ada Lovelace'],
  ...extra,
});
const open = (attributes: Record<string, unknown>, organisation_id = ORG) =>
  rt.sim.accountOpening.open({ id: crypto.randomUUID(), organisation_id, attributes });
const texts = (attributes: Record<string, unknown>, organisation_id = ORG) =>
  rt.sim.accountOpening.failuresOf({ id: '', organisation_id, attributes }).map((f) => f.text);

describe("Form3's account-creation rules", () => {
  it('open a GB account with a registered sort code and BIC', () => {
    expect(texts(gb())).toEqual([]);
  });

  it('refuse a bank id or BIC not registered to the organisation, naming what is', () => {
    expect(texts(gb({ bank_id: '309634' }))).toEqual([
      `bank_id in body 309634 is not registered to organisation ${ORG} (registered: 400300, 400301, 400302)`,
    ]);
    expect(texts(gb({ bic: 'HRBRGB2L' }))).toEqual([
      `bic in body HRBRGB2L is not registered to organisation ${ORG} (registered: NWBKGB22)`,
    ]);
    // Harbour's own sort code and BIC are Harbour's to use.
    expect(texts(gb({ bank_id: '309634', bic: 'HRBRGB2L' }), HARBOUR.organisation_id)).toEqual([]);
  });

  it('in GB: bank id (a sort code) and BIC required, GBDSC, 8-digit account numbers', () => {
    expect(texts({ country: 'GB', name: ['A'] })).toEqual([
      'bank_id in body is required for country GB',
      'bic in body is required for country GB',
    ]);
    expect(texts(gb({ bank_id_code: 'DEBLZ', account_number: '123456789' }))).toEqual([
      'bank_id_code in body should be equal to "GBDSC" for country GB',
      "account_number in body should match '^[0-9]{8}$' for country GB",
    ]);
  });

  it('outside GB: no country rule (the schema keeps the general patterns)', () => {
    expect(texts({ country: 'FR', name: ['Anne'] })).toEqual([]);
  });

  it('generate an 8-digit account number and a valid IBAN when they are omitted', () => {
    const a = open(gb());
    expect(a.attributes.account_number).toMatch(/^[0-9]{8}$/);
    expect(a.attributes.iban).toBe(
      `GB${String(a.attributes.iban).slice(2, 4)}NWBK400300${a.attributes.account_number}`,
    );
    expect(hasValidCheckDigits(String(a.attributes.iban))).toBe(true);
  });

  it('keep a given account number and IBAN as given', () => {
    const a = open(gb({ account_number: '12121212', iban: 'GB00NWBK40030012121212' }));
    expect(a.attributes).toMatchObject({ account_number: '12121212', iban: 'GB00NWBK40030012121212' });
  });

  it('generate numbers unique within the sort code', () => {
    const numbers = new Set<string>();
    for (let i = 0; i < 200; i++) numbers.add(String(open(gb()).attributes.account_number));
    expect(numbers.size).toBe(200);
  });

  it('demand a name only of an organisation configured for name verification', () => {
    expect(texts(gb({ name: undefined }))).toEqual(['name in body is required']);
    const withoutCop = new AccountOpening(rt.sim.accounts, rt.sim.organisations, () => false);
    expect(withoutCop.failuresOf({ id: '', organisation_id: ORG, attributes: gb({ name: undefined }) })).toEqual([]);
  });

  it('check a change: what it sets must be registered, and the account it makes keep its country rules', () => {
    const current = { country: 'FR', name: ['Anne'] };
    expect(rt.sim.accountOpening.changeFailuresOf(ORG, current, { country: 'GB' }).map((f) => f.text)).toEqual([
      'bank_id in body is required for country GB',
      'bic in body is required for country GB',
    ]);
    expect(rt.sim.accountOpening.changeFailuresOf(ORG, gb(), { bank_id: '040075' }).map((f) => f.text)).toEqual([
      `bank_id in body 040075 is not registered to organisation ${ORG} (registered: 400300, 400301, 400302)`,
    ]);
  });

  it('refuse, as a domain error, an account that breaks them', () => {
    expect(() => open({ country: 'GB', name: ['A'] })).toThrow(/bank_id in body is required for country GB/);
  });
});
