import { describe, expect, it } from 'vitest';
import { cloneAccount, createBody } from './store-rows.ts';

describe('account clones', () => {
  const template = { id: 'a', type: 'accounts', attributes: { account_number: '1', name: ['N'] } };

  it('have their own id and account number and keep everything else', () => {
    const a = cloneAccount(template, 0);
    const b = cloneAccount(template, 1);
    expect(a.id).not.toBe(b.id);
    expect(a.attributes.account_number).not.toBe(b.attributes.account_number);
    expect(a.type).toBe('accounts');
    expect(a.attributes.name).toEqual(['N']);
  });

  it('and create bodies are fake-API creates with the number given', () => {
    const body = JSON.parse(createBody('org', 50_000_001, 'id-1'));
    expect(body.data).toMatchObject({ id: 'id-1', organisation_id: 'org', type: 'accounts' });
    expect(body.data.attributes.account_number).toBe('50000001');
  });
});
