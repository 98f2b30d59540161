// The converter from JSON Schema to fast-check arbitraries, and the single-constraint breaker, on a
// schema that uses every keyword they claim to handle: generated values pass ajv, broken ones fail.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryOf, flatten, pointerResolver } from './schema-arbitrary.ts';
import { applyViolation, fieldOf, violationsOf } from './schema-violations.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

const doc = {
  components: {
    schemas: {
      common: { $defs: { uuid: { type: 'string', format: 'uuid' } } },
      thing: {
        type: 'object',
        required: ['data'],
        properties: {
          data: {
            type: 'object',
            required: ['id', 'type', 'attributes'],
            properties: {
              id: { $ref: '#/components/schemas/common/$defs/uuid' },
              type: { const: 'things' },
              version: { type: 'integer', minimum: 0 },
              attributes: {
                allOf: [
                  {
                    type: 'object',
                    properties: {
                      code: { type: 'string', pattern: '^[0-9]{6}$' },
                      colour: { enum: ['red', 'blue'] },
                      names: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', maxLength: 5 } },
                      ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
                      on: { type: 'boolean' },
                      day: { type: 'string', format: 'date' },
                      kind: { oneOf: [{ const: 'a' }, { type: 'integer', minimum: 3, maximum: 4 }] },
                    },
                  },
                  { required: ['code', 'names'] },
                ],
              },
            },
          },
        },
      },
    },
  },
};
const resolve = pointerResolver(doc);
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema({ $id: 'doc', ...doc });
const valid = ajv.getSchema('doc#/components/schemas/thing')!;
const schema = { $ref: '#/components/schemas/thing' };

describe('arbitraryOf', () => {
  it('makes only values the schema accepts', () => {
    fc.assert(
      fc.property(arbitraryOf(schema, resolve), (v) => {
        expect(valid(v), JSON.stringify(valid.errors)).toBe(true);
      }),
      { numRuns: 300, seed: 44 },
    );
  });

  it('makes optional keys sometimes and leaves them out sometimes', () => {
    const values = fc.sample(arbitraryOf(schema, resolve), { numRuns: 100, seed: 1 }) as any[];
    const present = values.filter((v) => 'colour' in v.data.attributes).length;
    expect(present).toBeGreaterThan(0);
    expect(present).toBeLessThan(100);
  });

  it('flattens allOf into one schema with the required keys of every part', () => {
    const s = flatten(doc.components.schemas.thing.properties.data.properties.attributes, resolve);
    expect(s.required).toEqual(['code', 'names']);
    expect(Object.keys(s.properties)).toContain('colour');
  });
});

describe('violationsOf', () => {
  const sample = fc.sample(arbitraryOf(schema, resolve), { numRuns: 40, seed: 7 });

  it('breaks each body in ways the schema refuses, each naming its field', () => {
    const rules = new Set<string>();
    for (const body of sample) {
      for (const v of violationsOf(schema, body, resolve)) {
        rules.add(v.rule);
        const broken = applyViolation(body, v);
        expect(valid(broken), `${v.rule} at ${v.path.join('.')} was accepted`).toBe(false);
        expect(JSON.stringify(valid.errors)).toContain(fieldOf(v.path));
      }
    }
    for (const rule of ['required', 'type', 'pattern', 'enum', 'const', 'format', 'minItems', 'maxItems', 'maxLength'])
      expect(rules).toContain(rule);
    for (const rule of ['exclusiveMinimum', 'maximum', 'minimum']) expect(rules).toContain(rule);
  });

  it('names the last key of a path, not an array index', () => {
    expect(fieldOf(['data', 'attributes', 'names', 1])).toBe('names');
    expect(fieldOf([])).toBe('body');
  });

  it('leaves the body it was given as it was', () => {
    const body = sample[0];
    const before = JSON.stringify(body);
    for (const v of violationsOf(schema, body, resolve)) applyViolation(body, v);
    expect(JSON.stringify(body)).toBe(before);
  });
});

describe('a required key with a default', () => {
  it('is not broken by leaving it out: the reader fills it in', () => {
    const s = { type: 'object', required: ['type'], properties: { type: { const: 'x', default: 'x' } } };
    expect(violationsOf(s, { type: 'x' }, resolve).map((v) => v.rule)).toEqual(['const']);
  });
});
