import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NORTHWIND, type TestRuntime, testRuntime } from '../harness/test-runtime.ts';
import { inBehaviour } from './accounts.ts';

let rt: TestRuntime;
beforeEach(async () => {
  rt = await testRuntime();
});
afterEach(() => rt.close());

const NORTHWIND_PARTICIPANT = '0015800001041REAAY';

describe("Form3's account defaults", () => {
  it('are applied in behaviour, never written into the stored account', () => {
    const account = rt.sim.accounts.create({
      id: crypto.randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
      attributes: { country: 'GB', bank_id: '400300', account_number: '55779911', name: ['Ada Lovelace'] },
    });
    expect(Object.keys(account.attributes)).not.toContain('account_classification');
    expect(Object.keys(account.attributes)).not.toContain('joint_account');
    expect(Object.keys(account.attributes)).not.toContain('account_matching_opt_out');
    expect(inBehaviour(account.attributes)).toMatchObject({
      account_classification: 'Personal',
      joint_account: false,
      account_matching_opt_out: false,
    });
    // Name verification reads it as a personal account: a business request for the exact name is PANM.
    const report = rt.sim.nameVerification.matchName(NORTHWIND_PARTICIPANT, {
      accountType: 'Business',
      identification: '40030055779911',
      name: 'Ada Lovelace',
    });
    expect(report).toEqual({ Matched: false, ReasonCode: 'PANM' });
  });

  it('are read into one shape whatever keys, and in whatever order, the client sent', () => {
    const sent = [
      { name: ['Ada Lovelace'], country: 'GB', bank_id: '400300', switched: true, customer_id: 'c-1' },
      { account_matching_opt_out: true, secondary_identification: 'ROLL 1', country: 'GB', name: ['Ada'] },
      {},
    ];
    for (const attributes of sent)
      expect(Object.keys(inBehaviour(attributes))).toEqual([
        'name',
        'alternative_names',
        'account_classification',
        'joint_account',
        'account_matching_opt_out',
        'switched',
        'name_matching_status',
        'secondary_identification',
      ]);
    expect(inBehaviour(sent[0]!)).toMatchObject({ switched: true, account_classification: 'Personal' });
    expect(inBehaviour(sent[1]!)).toMatchObject({ account_matching_opt_out: true, secondary_identification: 'ROLL 1' });
  });

  it('are read once per stored account, and anew once the account changes', () => {
    const account = rt.sim.accounts.create({
      id: crypto.randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
      attributes: { country: 'GB', bank_id: '400300', account_number: '55779912', name: ['Ada Lovelace'] },
    });
    // The same object each time: name verification keeps its candidate names per object it reads.
    expect(inBehaviour(account.attributes)).toBe(inBehaviour(account.attributes));
    const changed = rt.sim.accounts.update(account.id, NORTHWIND.organisation_id, 0, { joint_account: true });
    expect(inBehaviour(changed.attributes)).toMatchObject({ joint_account: true });
    expect(inBehaviour(account.attributes)).toMatchObject({ joint_account: false });
  });

  it('answer name verification from the account as it is now, after a change of its name', () => {
    const account = rt.sim.accounts.create({
      id: crypto.randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
      attributes: { country: 'GB', bank_id: '400300', account_number: '55779913', name: ['Ada Lovelace'] },
    });
    const ask = (name: string) =>
      rt.sim.nameVerification.matchName(NORTHWIND_PARTICIPANT, {
        accountType: 'Personal',
        identification: '40030055779913',
        name,
      });
    expect(ask('Ada Lovelace')).toEqual({ Matched: true });
    expect(ask('Ada Lovelace')).toEqual({ Matched: true }); // asked again: the kept result
    rt.sim.accounts.update(account.id, NORTHWIND.organisation_id, 0, { name: ['Charles Babbage'] });
    expect(ask('Ada Lovelace')).toEqual({ Matched: false, ReasonCode: 'ANNM' });
    expect(ask('Charles Babbage')).toEqual({ Matched: true });
  });

  it('keeps a classification given in any case capitalised', () => {
    const account = rt.sim.accounts.create({
      id: crypto.randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
      attributes: { country: 'FR', name: ['Anne'], account_classification: 'business' },
    });
    expect(account.attributes.account_classification).toBe('Business');
  });
});
