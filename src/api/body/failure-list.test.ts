import { describe, expect, it } from 'vitest';
import { schemaValidator } from '../schemas/index.ts';
import { failureText } from './validate.ts';

const ID = 'ad27e265-9605-4b4b-a0e5-3003ea9cc4dc';
const ORG = 'eb0bd6f5-c3f5-44b2-b677-acd23cdde73c';

function textFor(body: unknown, schema = 'account-create'): string {
  const validate = schemaValidator(schema);
  expect(validate(body)).toBe(false);
  return failureText(validate.errors, body, 'body');
}

const P = 'validation failure list:';

// The texts Form3's fake account API answers (../shared/reference/form3-contract.md §4).
describe('failure lists as go-swagger nests them', () => {
  it('a missing attribute: three prefixes', () => {
    const body = { data: { id: ID, organisation_id: ORG, type: 'accounts', attributes: { name: ['A'] } } };
    expect(textFor(body)).toBe(`${P}\n${P}\n${P}\ncountry in body is required`);
  });

  it('a missing field of data: two prefixes', () => {
    const body = { data: { id: ID, type: 'accounts', attributes: { country: 'GB', name: ['A'] } } };
    expect(textFor(body)).toBe(`${P}\n${P}\norganisation_id in body is required`);
    expect(textFor({ data: { id: ID, organisation_id: ORG, type: 'accounts' } })).toBe(
      `${P}\n${P}\nattributes in body is required`,
    );
  });

  it('an id that is no uuid is quoted', () => {
    const body = {
      data: { id: 'invalid uuid', organisation_id: ORG, type: 'accounts', attributes: { country: 'GB', name: ['A'] } },
    };
    expect(textFor(body)).toBe(`${P}\n${P}\nid in body must be of type uuid: "invalid uuid"`);
  });

  it('several failures: one line each, by property, the nested object in its place', () => {
    const body = {
      data: {
        id: 'x',
        organisation_id: ORG,
        type: 'accounts',
        attributes: { country: 'gb', status: 'open', account_classification: 'x', name: 'x' },
      },
    };
    const text = textFor(body);
    const lines = text.split('\n');
    expect(lines.slice(0, 3)).toEqual([P, P, P]);
    const attributeLines = lines.slice(3, -1);
    expect(attributeLines).toEqual([...attributeLines].sort());
    expect(attributeLines.some((l) => l.startsWith('country in body should match'))).toBe(true);
    expect(attributeLines).toContain('name in body must be of type array');
    expect(lines.at(-1)).toBe('id in body must be of type uuid: "x"');
  });

  it('the body or data of the wrong type: one or two prefixes', () => {
    expect(textFor([])).toBe(`${P}\nbody must be of type object`);
    expect(textFor({ data: 'x' })).toBe(`${P}\ndata in body must be of type object`);
    expect(textFor({ data: { id: ID, organisation_id: ORG, type: 'accounts', attributes: 'x' } })).toBe(
      `${P}\n${P}\nattributes in body must be of type object`,
    );
  });

  it('items of an array of strings stay in the object holding the array', () => {
    const body = {
      data: { id: ID, organisation_id: ORG, type: 'accounts', attributes: { country: 'GB', name: ['A', ''] } },
    };
    expect(textFor(body)).toBe(`${P}\n${P}\n${P}\nname.1 in body should be at least 1 chars long`);
  });

  it('an object inside an array is a level of its own', () => {
    const body = {
      data: {
        id: ID,
        organisation_id: ORG,
        type: 'accounts',
        attributes: { country: 'GB', name: ['A'], user_defined_data: [{}] },
      },
    };
    expect(textFor(body)).toBe(
      `${P}\n${P}\n${P}\n${P}\nuser_defined_data.0.key in body is required\nuser_defined_data.0.value in body is required`,
    );
  });
});
