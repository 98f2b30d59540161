import { describe, expect, it } from 'vitest';
import { claimRequest, submitVia } from '../../test/support/claim-requests.ts';
import { NORTHWIND, testRuntime } from '../harness/test-runtime.ts';
import { asForm3Reads } from './body/body.ts';

describe('asForm3Reads', () => {
  it('drops null values inside data, at any depth, and keeps array items', () => {
    const read = asForm3Reads(
      {
        data: {
          id: 'x',
          version: null,
          attributes: { name: null, bic: 'NWBKGB22', party: { a: null, b: 1 }, list: [null, 1] },
        },
      },
      'accounts',
    );
    expect(read).toEqual({
      data: { id: 'x', type: 'accounts', attributes: { bic: 'NWBKGB22', party: { b: 1 }, list: [null, 1] } },
    });
  });

  it("drops Go's zero date, which Form3's SDK sends for an unset optional date", () => {
    const read = asForm3Reads(
      { data: { attributes: { processing_date: '0001-01-01', request_date: '0001-01-01', contact_name: 'J' } } },
      'claims',
    );
    expect(read).toEqual({ data: { type: 'claims', attributes: { contact_name: 'J' } } });
  });

  it('fills an omitted type, keeps a given one, and leaves what is not a resource body alone', () => {
    expect(asForm3Reads({ data: { type: 'claims' } }, 'accounts')).toEqual({ data: { type: 'claims' } });
    for (const body of [null, [], 'x', { data: null }, { data: [] }])
      expect(asForm3Reads(body, 'accounts')).toEqual(body);
  });

  it('keeps a key named __proto__ as a key, so validation refuses it by name', () => {
    const read = asForm3Reads(JSON.parse('{"data": {"attributes": {"__proto__": {"admin": true}}}}'), 'accounts') as {
      data: { attributes: Record<string, unknown> };
    };
    expect(Object.keys(read.data.attributes)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('bodies as Form3 reads them, over HTTP', () => {
  it('creates without type, takes nulls as absent, and PATCHes with "name": null as Form3’s Go SDK sends it', async () => {
    const rt = await testRuntime();
    const id = crypto.randomUUID();
    const created = await rt.call('POST', '/v1/organisation/accounts', {
      data: {
        id,
        organisation_id: NORTHWIND.organisation_id,
        attributes: {
          country: 'GB',
          bank_id: '400300',
          bank_id_code: 'GBDSC',
          bic: 'NWBKGB22',
          name: ['Sam Holder'],
          joint_account: null,
        },
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const account = ((await created.json()) as { data: { type: string; attributes: Record<string, unknown> } }).data;
    expect(account.type).toBe('accounts');
    const patched = await rt.call('PATCH', `/v1/organisation/accounts/${id}`, {
      data: {
        id,
        organisation_id: NORTHWIND.organisation_id,
        type: null,
        version: 0,
        attributes: { name: null, switched: true },
      },
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    const after = ((await patched.json()) as { data: { version: number; attributes: Record<string, unknown> } }).data;
    expect(after).toMatchObject({ version: 1, attributes: { name: ['Sam Holder'], switched: true } });
    const missing = await rt.call('POST', '/v1/organisation/accounts', {
      data: {
        id: crypto.randomUUID(),
        organisation_id: NORTHWIND.organisation_id,
        attributes: { country: 'GB', name: null },
      },
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error_message: string }).error_message).toContain('name in body is required');
    await rt.close();
  });
});

describe("every attribute of Form3's account model", () => {
  it('is accepted, stored and echoed, the deprecated ones included', async () => {
    const rt = await testRuntime();
    const attributes = {
      country: 'GB',
      bank_id: '400300',
      bank_id_code: 'GBDSC',
      bic: 'NWBKGB22',
      name: ['Sam Holder'],
      status: 'confirmed',
      status_reason: 'none',
      validation_type: 'mandatory_reference',
      reference_mask: '############',
      acceptance_qualifier: 'same_day',
      user_defined_data: [{ key: 'team', value: 'payments' }],
      processing_service: 'ABC Bank',
      user_defined_information: 'free text',
      title: 'Dr',
      first_name: 'Samantha',
      bank_account_name: 'Samantha Holder',
      alternative_bank_account_names: ['S Holder'],
      private_identification: { birth_date: '2017-07-23', birth_country: 'GB', identification: '13YH458762' },
      organisation_identification: { identification: '123654', address: ['10 Avenue des Champs'] },
      switched_account_details: {
        account_number: '12345678',
        account_number_code: 'BBAN',
        account_with: { bank_id: '400302', bank_id_code: 'GBDSC', bic: 'NWBKGB22' },
        switched_effective_date: '2026-12-01',
      },
    };
    const id = crypto.randomUUID();
    const res = await rt.call('POST', '/v1/organisation/accounts', {
      data: { id, organisation_id: NORTHWIND.organisation_id, type: 'accounts', attributes },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const fetched = await rt.call('GET', `/v1/organisation/accounts/${id}`);
    expect(((await fetched.json()) as { data: { attributes: object } }).data.attributes).toMatchObject(attributes);
    const bad = await rt.call('POST', '/v1/organisation/accounts', {
      data: {
        id: crypto.randomUUID(),
        organisation_id: NORTHWIND.organisation_id,
        attributes: { ...attributes, status: 'open' },
      },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error_message: string }).error_message).toContain(
      'status in body should be one of',
    );
    await rt.close();
  });
});

describe("Go's zero date on a claim (Form3's SDK sends it for an unset date)", () => {
  it('is absent: reason 7 without a real request_date fails validation as missing, reason 2 stores none', async () => {
    const rt = await testRuntime();
    try {
      const create = (over: Record<string, unknown>) =>
        rt.call('POST', '/v1/transaction/claims', claimRequest(NORTHWIND.organisation_id, over));
      const zero = await create({ reason_code: '7', contact_name: 'J Smith', request_date: '0001-01-01' });
      expect(zero.status).toBe(201);
      const claim = ((await zero.json()) as { data: { id: string; attributes: Record<string, unknown> } }).data;
      expect(claim.attributes.request_date).toBeUndefined();
      const sub = await submitVia(rt, claim.id);
      await rt.call('POST', '/v1/simulator/clock/advance', { hours: 1 });
      const read = await rt.call('GET', `/v1/transaction/claims/${claim.id}/submissions/${sub.id}`);
      expect(((await read.json()) as { data: { attributes: Record<string, string> } }).data.attributes).toMatchObject({
        status: 'validation_failed',
        status_reason: 'request_date is required when reason_code is 7',
      });
      const ok = await create({ reason_code: '2', processing_date: '0001-01-01' });
      expect(ok.status).toBe(201);
      expect(
        ((await ok.json()) as { data: { attributes: Record<string, unknown> } }).data.attributes.processing_date,
      ).toBeUndefined();
    } finally {
      await rt.close();
    }
  });
});
