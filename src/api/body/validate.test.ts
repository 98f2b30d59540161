import { describe, expect, it } from 'vitest';
import { claimAttributes } from '../../harness/claim-attributes.ts';
import { schemaValidator } from '../schemas/index.ts';
import { describeErrors, fieldName, validateOrThrow } from './validate.ts';

function messages(schema: string, body: unknown): string[] {
  const validate = schemaValidator(schema);
  expect(validate(body)).toBe(false);
  return describeErrors(validate.errors);
}

describe('fieldName', () => {
  it('names fields as a client knows them', () => {
    expect(fieldName('')).toBe('');
    expect(fieldName('/data')).toBe('data');
    expect(fieldName('/data/id')).toBe('id');
    expect(fieldName('/data/attributes')).toBe('attributes');
    expect(fieldName('/data/attributes/name/4')).toBe('name.4');
    expect(fieldName('/data/attributes/a~1b')).toBe('a/b');
    expect(fieldName('/page/size', 'query')).toBe('page.size');
  });
});

describe('describeErrors at the root of a body', () => {
  it.each(['account-create', 'claim-create', 'subscription-create', 'account-update'])(
    '%s: attributes of the wrong type are named attributes',
    (schema) => {
      for (const attributes of [null, [], 'GB', 42]) {
        expect(messages(schema, { data: { attributes } })).toContain('attributes in body must be of type object');
        expect(messages(schema, { data: { attributes } }).join('; ')).not.toMatch(/(^|; )body in body/);
      }
    },
  );

  it('names data, and the body itself, when they are not objects', () => {
    for (const data of [null, [], 'x'])
      expect(messages('account-create', { data })).toEqual(['data in body must be of type object']);
    for (const body of [null, [], 'accounts'])
      expect(messages('account-create', body)).toEqual(['body must be of type object']);
    expect(messages('account-create', {})).toEqual(['data in body is required']);
  });

  it('names a missing attribute bare', () => {
    const base = {
      id: 'ad27e265-9605-4b4b-a0e5-3003ea9cc4dc',
      organisation_id: 'eb0bd6f5-c3f5-44b2-b677-acd23cdde73c',
      type: 'accounts',
    };
    expect(messages('account-create', { data: { ...base, attributes: { name: ['A'] } } })).toEqual([
      'country in body is required',
    ]);
  });
});

describe("validateOrThrow with enums in place of the schema's rule", () => {
  const body = (attributes: Record<string, unknown>) => ({
    data: {
      id: 'ad27e265-9605-4b4b-a0e5-3003ea9cc4dc',
      organisation_id: 'eb0bd6f5-c3f5-44b2-b677-acd23cdde73c',
      type: 'accounts',
      attributes: { country: 'GB', ...attributes },
    },
  });
  const enums = { '/data/attributes/status': ['pending', 'confirmed', 'failed'] };
  const refusal = (value: unknown) => {
    try {
      validateOrThrow('account-create', value, 'body', { enums });
    } catch (err) {
      return (err as Error).message;
    }
    return undefined;
  };

  it("refuses a value the schema allows but the enum does not, in the enum's words", () => {
    expect(refusal(body({ status: 'closed' }))).toBe(
      'validation failure list:\nvalidation failure list:\nvalidation failure list:\nstatus in body should be one of [pending confirmed failed]',
    );
  });

  it("reports the enum's failure, not the schema's, for a value both refuse", () => {
    const message = refusal(body({ status: 'shut' }));
    expect(message).toContain('should be one of [pending confirmed failed]');
    expect(message).not.toContain('closed');
  });

  it('accepts a value of the enum, and leaves other attributes to the schema', () => {
    expect(refusal(body({ status: 'confirmed' }))).toBeUndefined();
    expect(refusal(body({ status: 'confirmed', country: 'gb' }))).toContain(
      "country in body should match '^[A-Z]{2}$'",
    );
  });
});

describe('rules a schema words itself (errorMessage)', () => {
  const claim = (amounts: string[]) => ({
    data: {
      id: '6f0d7d4e-2c1b-4d5a-9b8e-1a2b3c4d5e6f',
      organisation_id: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb',
      type: 'claims',
      attributes: claimAttributes(amounts),
    },
  });

  it('accepts any amount Form3 accepts that is a positive number, however many decimals', () => {
    expect(schemaValidator('claim-create')(claim(['1.00', '2.5', '0.001', '.5']))).toBe(true);
  });

  it('names each amount that is not a number greater than zero, with its value, after the field', () => {
    expect(messages('claim-create', claim(['0.00', '1.2.3', '.']))).toEqual([
      'disputed_transactions.0.amount in body should be a number greater than 0: "0.00"',
      'disputed_transactions.1.amount in body should be a number greater than 0: "1.2.3"',
      'disputed_transactions.2.amount in body should be a number greater than 0: "."',
    ]);
  });

  it('gives a rule over several fields as the whole line it words', () => {
    expect(messages('clock-advance', { days: 1, hours: 1 })).toEqual([
      'body must have exactly one of working_days, days, hours, to',
    ]);
  });
});
