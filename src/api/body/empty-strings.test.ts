import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NORTHWIND, testRuntime } from '../../harness/test-runtime.ts';
import { FAKE_ACCOUNT_API_MODEL } from '../../sim/account-registry.ts';
import { schemaOf } from '../schemas/index.ts';
import { asForm3Reads } from './body.ts';
import { emptyMeansAbsent, FORM3_EMPTY_MEANS_ABSENT, withoutEmptyStrings } from './empty-strings.ts';

describe('withoutEmptyStrings', () => {
  it('drops "" at the paths given, in nested objects and array items, and nothing else', () => {
    const body = {
      data: {
        type: '',
        id: '',
        attributes: {
          bic: '',
          country: '',
          name: [''],
          private_identification: { city: '', country: 'GB' },
          organisation_identification: { actors: [{ role: '' }, { role: 'CEO' }, 'x'] },
        },
      },
    };
    withoutEmptyStrings(body, [
      'type',
      'attributes/bic',
      'attributes/name',
      'attributes/private_identification/city',
      'attributes/organisation_identification/actors/*/role',
      'attributes/missing/deeper',
    ]);
    expect(body).toEqual({
      data: {
        id: '',
        attributes: {
          country: '',
          name: [''],
          private_identification: { country: 'GB' },
          organisation_identification: { actors: [{}, { role: 'CEO' }, 'x'] },
        },
      },
    });
  });

  it('leaves what is not a resource body alone', () => {
    for (const body of [null, [], 'x', { data: null }, { data: [] }, { data: 'x' }])
      expect(withoutEmptyStrings(body, ['type'])).toEqual(body);
  });

  it('runs before the type is filled in: an empty type is the resource’s own', () => {
    expect(asForm3Reads({ data: { type: '' } }, 'accounts', ['type'])).toEqual({ data: { type: 'accounts' } });
    expect(asForm3Reads({ data: { type: '' } }, undefined, ['type'])).toEqual({ data: {} });
  });
});

describe("the models' lists", () => {
  it('name attributes the schemas declare (a typo would never match)', () => {
    // Down to the attribute: inside one, Form3's models have fields the schemas leave undeclared
    // (stored as given), such as private_identification's identification_scheme_code.
    const undeclared = Object.entries(FORM3_EMPTY_MEANS_ABSENT).flatMap(([schema, paths]) =>
      paths
        .filter((p) => !declares({ schema, pointer: '' }, ['data', ...p.split('/').slice(0, 2)]))
        .map((p) => `${schema}: ${p}`),
    );
    expect(undeclared).toEqual([]);
  });

  it("with the fake account API's model: its own paths for its fifteen attributes, Form3's for the others", () => {
    const paths = emptyMeansAbsent('account-create', FAKE_ACCOUNT_API_MODEL);
    expect(paths).toContain('id');
    expect(paths).toContain('attributes/secondary_identification');
    expect(paths).toContain('attributes/title');
    expect(paths).toContain('attributes/private_identification/city');
    // A pointer in the fake API's model, a Go string in Form3's.
    expect(paths).not.toContain('attributes/status');
    expect(FORM3_EMPTY_MEANS_ABSENT['account-create']).toContain('attributes/status');
    expect(emptyMeansAbsent('account-create')).toBe(FORM3_EMPTY_MEANS_ABSENT['account-create']);
  });
});

describe('empty optional strings over HTTP (go-swagger skips a zero value)', () => {
  const create = (attributes: Record<string, unknown>, data: Record<string, unknown> = {}) => ({
    data: {
      id: randomUUID(),
      organisation_id: NORTHWIND.organisation_id,
      type: 'accounts',
      attributes: { country: 'GB', ...NORTHWIND.bank, name: ['Sam Holder'], ...attributes },
      ...data,
    },
  });
  const messageOf = async (res: Response) => ((await res.json()) as { error_message: string }).error_message;

  it('with auth on: "" is not given where Form3’s model holds a Go string, and checked where a pointer', async () => {
    const rt = await testRuntime();
    try {
      const created = await rt.call(
        'POST',
        '/v1/organisation/accounts',
        create(
          { secondary_identification: '', status: '', title: '', private_identification: { city: '' } },
          {
            type: '',
          },
        ),
      );
      expect(created.status, await created.clone().text()).toBe(201);
      const account = ((await created.json()) as { data: { id: string; type: string; attributes: object } }).data;
      expect(account.type).toBe('accounts');
      expect(account.attributes).not.toHaveProperty('secondary_identification');
      expect(account.attributes).not.toHaveProperty('status');
      expect(account.attributes).toHaveProperty('private_identification', {});
      // `country` and `account_classification` are pointers in Account's attributes: "" is checked.
      const refused = await rt.call('POST', '/v1/organisation/accounts', create({ account_classification: '' }));
      expect(refused.status).toBe(400);
      expect(await messageOf(refused)).toContain('account_classification in body should match');
      // A PATCH (AccountUpdateAttributes holds country as a Go string): "" changes nothing.
      const patched = await rt.call('PATCH', `/v1/organisation/accounts/${account.id}`, {
        data: {
          id: account.id,
          organisation_id: NORTHWIND.organisation_id,
          version: 0,
          attributes: { country: '', secondary_identification: '', switched: true },
        },
      });
      expect(patched.status, await patched.clone().text()).toBe(200);
      expect(((await patched.json()) as { data: { attributes: object } }).data.attributes).toMatchObject({
        country: 'GB',
        switched: true,
      });
      // The id is a pointer (`*strfmt.UUID`): "" is checked as a uuid.
      const noId = await rt.call('POST', '/v1/organisation/accounts', create({}, { id: '' }));
      expect(await messageOf(noId)).toContain('id in body must be of type uuid: ""');
    } finally {
      await rt.close();
    }
  });

  it("with auth off: the fake account API's model, where id, organisation_id and type are Go strings", async () => {
    const rt = await testRuntime({ auth: 'off' });
    try {
      const created = await rt.call('POST', '/v1/organisation/accounts', create({ secondary_identification: '' }));
      expect(created.status, await created.clone().text()).toBe(201);
      const status = await rt.call('POST', '/v1/organisation/accounts', create({ status: '' }));
      expect(await messageOf(status)).toContain('status in body should be one of [pending confirmed failed]');
      const ids = await rt.call('POST', '/v1/organisation/accounts', create({}, { id: '', organisation_id: '' }));
      expect(await messageOf(ids)).toBe(
        'validation failure list:\nvalidation failure list:\nid in body is required\norganisation_id in body is required',
      );
      const type = await rt.call('POST', '/v1/organisation/accounts', create({}, { type: '' }));
      expect(await messageOf(type)).toBe(
        'validation failure list:\nvalidation failure list:\ntype in body is required',
      );
    } finally {
      await rt.close();
    }
  });

  it('on a subscription PATCH, "" leaves the callback and the filter as they were', async () => {
    const rt = await testRuntime();
    try {
      const id = randomUUID();
      const made = await rt.call('POST', '/v1/notification/subscriptions', {
        data: {
          id,
          organisation_id: NORTHWIND.organisation_id,
          attributes: {
            event_type: 'created',
            record_type: 'accounts',
            callback_transport: 'http',
            callback_uri: 'http://127.0.0.1:9/hooks',
            filter: '',
          },
        },
      });
      expect(made.status, await made.clone().text()).toBe(201);
      const patched = await rt.call('PATCH', `/v1/notification/subscriptions/${id}`, {
        data: {
          id,
          organisation_id: NORTHWIND.organisation_id,
          version: 0,
          attributes: { callback_uri: '', callback_transport: '', event_type: '', deactivated: true },
        },
      });
      expect(patched.status, await patched.clone().text()).toBe(200);
      expect(((await patched.json()) as { data: { attributes: object } }).data.attributes).toMatchObject({
        event_type: 'created',
        callback_transport: 'http',
        callback_uri: 'http://127.0.0.1:9/hooks',
        deactivated: true,
      });
    } finally {
      await rt.close();
    }
  });
});

interface At {
  schema: string;
  pointer: string;
}

/** The subschema at a place, its `$ref`s followed. */
function resolved(at: At): { at: At; node: Record<string, unknown> } {
  let node = schemaOf(at.schema) as Record<string, unknown>;
  for (const step of at.pointer.split('/').filter(Boolean)) node = node[step] as Record<string, unknown>;
  if (typeof node.$ref !== 'string') return { at, node };
  const [file, pointer] = node.$ref.split('#');
  return resolved({ schema: file || at.schema, pointer: pointer ?? '' });
}

/** Whether the schema at `at` declares the property path `steps` (`*`: an array's items). */
function declares(at: At, steps: readonly string[]): boolean {
  if (steps.length === 0) return true;
  const { at: here, node } = resolved(at);
  const branches = (['allOf', 'anyOf', 'oneOf'] as const).flatMap((k) =>
    ((node[k] as unknown[] | undefined) ?? []).map((_, i) => ({ ...here, pointer: `${here.pointer}/${k}/${i}` })),
  );
  if (branches.some((b) => declares(b, steps))) return true;
  const [step, ...rest] = steps;
  if (step === '*') return node.items !== undefined && declares({ ...here, pointer: `${here.pointer}/items` }, rest);
  const properties = node.properties as Record<string, unknown> | undefined;
  return (
    properties?.[step!] !== undefined && declares({ ...here, pointer: `${here.pointer}/properties/${step}` }, rest)
  );
}
