import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { bodyOf, MALFORMED_ACCOUNT_REQUESTS } from '../../harness/malformed-account-requests.ts';
import { FORMATS } from './formats.ts';
import { createAjv, exportNameOf, loadSchemas, type SchemaSet } from './index.ts';
import { precompiledSource } from './precompile.ts';

// The validators the build writes out (precompile.ts) against those compiled at run time from the
// same schemas and options: the same verdict, the same errors and the same keys dropped.

function precompiled(set: SchemaSet): Record<string, ValidateFunction> {
  const exports: Record<string, ValidateFunction> = {};
  new Function('exports', 'require', 'formats', precompiledSource(set, 'cjs'))(
    exports,
    createRequire(import.meta.url),
    FORMATS,
  );
  return exports;
}

const shape = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => ({
    instancePath: e.instancePath,
    keyword: e.keyword,
    params: e.params,
    message: e.message,
  }));

const ids = { id: '0b2f5c9e-5a43-4c1e-9d3f-3c2f1e0a9b8c', organisation_id: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb' };
/** Every JSON body of the malformed account corpus, and the schema it is read by. */
const bodies = MALFORMED_ACCOUNT_REQUESTS.flatMap((row) => {
  const text = bodyOf(row, ids);
  if (text === undefined || (row.method !== 'POST' && row.method !== 'PATCH')) return [];
  try {
    return [
      {
        label: row.label,
        schema: row.method === 'POST' ? 'account-create' : 'account-update',
        value: JSON.parse(text),
      },
    ];
  } catch {
    return []; // not JSON: refused before any validator
  }
});

describe('precompiled validators', () => {
  for (const set of ['refusing', 'dropping', 'storing'] as const) {
    it(`export one validator per schema (${set})`, () => {
      const exported = precompiled(set);
      for (const { $id } of loadSchemas()) expect(typeof exported[exportNameOf($id)], $id).toBe('function');
    });
  }

  for (const set of ['refusing', 'dropping'] as const) {
    it(`answer as the run-time ones over the malformed account corpus (${set})`, () => {
      expect(bodies.length).toBeGreaterThan(50);
      const built = precompiled(set);
      const ajv = createAjv(set);
      for (const { label, schema, value } of bodies) {
        const atRunTime = ajv.getSchema(schema)!;
        const a = structuredClone(value);
        const b = structuredClone(value);
        const verdict = atRunTime(a);
        const validate = built[exportNameOf(schema)]!;
        expect(validate(b), label).toBe(verdict);
        expect(shape(validate.errors), label).toEqual(shape(atRunTime.errors));
        expect(b, label).toEqual(a);
      }
    });
  }
});
