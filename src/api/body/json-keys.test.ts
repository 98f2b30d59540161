import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NORTHWIND, testRuntime } from '../../harness/test-runtime.ts';
import { fieldsOf, withDeclaredKeys } from './json-keys.ts';

const read = (body: unknown, schema = 'account-create') => withDeclaredKeys(body, fieldsOf(schema));

describe('keys matched to the model as Go’s encoding/json matches them', () => {
  it('renames a key that names a field in another case, at every depth, arrays included', () => {
    expect(
      read({
        Data: {
          ID: 'x',
          Organisation_ID: 'o',
          TYPE: 'accounts',
          Attributes: {
            Country: 'GB',
            NAME: ['Sam'],
            Private_Identification: { City: 'Leeds' },
            User_Defined_Data: [{ KEY: 'k', Value: 'v' }],
          },
        },
      }),
    ).toEqual({
      data: {
        id: 'x',
        organisation_id: 'o',
        type: 'accounts',
        attributes: {
          country: 'GB',
          name: ['Sam'],
          private_identification: { city: 'Leeds' },
          user_defined_data: [{ key: 'k', value: 'v' }],
        },
      },
    });
  });

  it('folds as Go does: the Kelvin sign is a k, the long s an s', () => {
    expect(read({ data: { attributes: { 'ban\u212A_id': '400300', ſwitched: true } } })).toEqual({
      data: { attributes: { bank_id: '400300', switched: true } },
    });
  });

  it('leaves keys that name no field, and a body with every key as declared, untouched', () => {
    const body = { data: { id: 'x', attributes: { country: 'GB', Favourite_Colour: 'blue' } }, Extra: 1 };
    const same = read(body);
    expect(same).toBe(body);
    expect(same).toEqual({ data: { id: 'x', attributes: { country: 'GB', Favourite_Colour: 'blue' } }, Extra: 1 });
    for (const v of [null, [], 'x', 7]) expect(read(v)).toEqual(v);
  });

  it('decodes two keys for one field in order: the later wins, objects merged into the earlier', () => {
    expect(
      read({ data: { id: 'a', ID: 'b', attributes: { country: 'FR', bic: 'X' }, Attributes: { Country: 'GB' } } }),
    ).toEqual({ data: { id: 'b', attributes: { country: 'GB', bic: 'X' } } });
  });

  it('keeps a key named __proto__ a key', () => {
    const body = read(JSON.parse('{"Data": {"__proto__": {"admin": true}}}')) as { data: object };
    expect(Object.keys(body.data)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('a body in another case over HTTP', () => {
  const body = (id: string) => ({
    Data: {
      ID: id,
      Organisation_Id: NORTHWIND.organisation_id,
      Type: 'accounts',
      Attributes: { Country: 'GB', Bank_ID: NORTHWIND.bank.bank_id, BIC: NORTHWIND.bank.bic, Name: ['Sam Holder'] },
    },
  });

  for (const auth of ['off', 'on'] as const)
    it(`is created with auth ${auth}, and amended by a PATCH in any case`, async () => {
      const rt = await testRuntime({ auth });
      try {
        const id = randomUUID();
        const created = await rt.call('POST', '/v1/organisation/accounts', body(id));
        expect(created.status, await created.clone().text()).toBe(201);
        const account = ((await created.json()) as { data: { id: string; attributes: object } }).data;
        expect(account.id).toBe(id);
        expect(account.attributes).toMatchObject({ country: 'GB', name: ['Sam Holder'] });
        const patched = await rt.call('PATCH', `/v1/organisation/accounts/${id}`, {
          DATA: { Id: id, Organisation_ID: NORTHWIND.organisation_id, VERSION: 0, attributes: { Switched: true } },
        });
        expect(patched.status, await patched.clone().text()).toBe(200);
        expect(((await patched.json()) as { data: { attributes: object } }).data.attributes).toMatchObject({
          switched: true,
        });
      } finally {
        await rt.close();
      }
    });
});
