import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

/** The folder holding every JSON Schema; features/ reads the same files. */
export const SCHEMA_DIR = dirname(fileURLToPath(import.meta.url));

/** Every schema in this folder, by its $id (the file name without .json). */
export function loadSchemas(dir: string = SCHEMA_DIR): Array<Record<string, unknown> & { $id: string }> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const schema = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown> & { $id: string };
      if (schema.$id !== f.replace(/\.json$/, ''))
        throw new Error(`schema ${f} must have $id "${f.replace(/\.json$/, '')}"`);
      return schema;
    });
}

/** One Ajv instance holding every schema, compiled once per schema on first use. */
export function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  for (const schema of loadSchemas()) ajv.addSchema(schema);
  return ajv;
}

const ajv = createAjv();
const validators = new Map<string, ValidateFunction>();

export function schemaValidator(id: string): ValidateFunction {
  // Kept by id: ajv.getSchema normalises and resolves the id on every call, on every request.
  let fn = validators.get(id);
  if (fn) return fn;
  fn = ajv.getSchema(id);
  if (!fn) throw new Error(`no schema ${id} in ${SCHEMA_DIR}`);
  validators.set(id, fn);
  return fn;
}
