import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { plainUtcDateTime } from './fast-date-time.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

/** The folder holding every JSON Schema; features/ reads the same files. */
export const SCHEMA_DIR = dirname(fileURLToPath(import.meta.url));

/** Every schema in this folder, by its $id (the file name without .json). */
export function loadSchemas(dir: string = SCHEMA_DIR): Array<Record<string, unknown> & { $id: string }> {
  return readSchemas(dir);
}

/**
 * The schemas as stored records must match them: a relationship item an answer shows as the
 * related resource (a schema's `$defs.related`) is stored as a reference `{id, type}` and shown
 * from the related record when answered (ResourcePaths).
 */
function storedRecordSchemas(): Array<Record<string, unknown> & { $id: string }> {
  return readSchemas(SCHEMA_DIR).map((schema) => {
    const defs = schema.$defs as Record<string, unknown> | undefined;
    if (!defs?.related) return schema;
    return { ...schema, $defs: { ...defs, related: { $ref: 'common#/$defs/reference' } } };
  });
}

function readSchemas(dir: string): Array<Record<string, unknown> & { $id: string }> {
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

/**
 * One Ajv instance holding every schema, compiled once per schema on first use. With
 * `dropUndeclared`, a key an object's schema does not declare (`additionalProperties: false`) is
 * removed rather than refused: a go-swagger server ignores keys its model does not declare.
 *
 * `inlineRefs: false`: a referenced schema (common.json's definitions, a resource's attributes) is
 * compiled once as a function of its own that every schema referring to it calls, instead of
 * being generated again inside each of them: compiling all the schemas takes a quarter of the time
 * (the account-create schema alone 138 ms → 25 ms), so start-up can compile them all.
 */
export function createAjv(options: { dropUndeclared?: boolean; storedRecords?: boolean } = {}): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    inlineRefs: false,
    ...(options.dropUndeclared ? { removeAdditional: true } : {}),
  });
  addFormats(ajv);
  // The same answers as ajv-formats' date-time, with a quick yes for the common shape.
  const full = ajv.formats['date-time'] as { validate: (s: string) => boolean; compare?: unknown };
  ajv.addFormat('date-time', { ...full, validate: (s: string) => plainUtcDateTime(s) || full.validate(s) } as never);
  for (const schema of options.storedRecords ? storedRecordSchemas() : loadSchemas()) ajv.addSchema(schema);
  return ajv;
}

const refusing = { ajv: createAjv(), validators: new Map<string, ValidateFunction>() };
// Made on first use: the tests that validate only answers never need it.
let dropping: typeof refusing | undefined;

// Compiled only when a store is opened: the schemas with relationship items as stored.
let storing: typeof refusing | undefined;

/**
 * The validator of a schema; `dropUndeclared` gives the one that removes undeclared keys from the
 * value, `storedRecords` the one that reads a record as the store holds it (storedRecordSchemas).
 */
export function schemaValidator(
  id: string,
  options: { dropUndeclared?: boolean; storedRecords?: boolean } = {},
): ValidateFunction {
  const set = options.storedRecords
    ? (storing ??= { ajv: createAjv({ storedRecords: true }), validators: new Map() })
    : options.dropUndeclared
      ? (dropping ??= { ajv: createAjv({ dropUndeclared: true }), validators: new Map() })
      : refusing;
  // Kept by id: ajv.getSchema normalises and resolves the id on every call, on every request.
  let fn = set.validators.get(id);
  if (fn) return fn;
  fn = set.ajv.getSchema(id);
  if (!fn) throw new Error(`no schema ${id} in ${SCHEMA_DIR}`);
  set.validators.set(id, fn);
  return fn;
}

/**
 * Compiles these schemas' validators, both the refusing and the key-dropping one, so that no
 * request pays for a compile (tens of milliseconds on the event loop, while every request in
 * flight waits). The server calls it before it says it is listening; it yields to the event loop
 * between schemas.
 */
export async function compileValidators(ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    schemaValidator(id);
    schemaValidator(id, { dropUndeclared: true });
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Whether both validators of a schema are compiled already. */
export function isCompiled(id: string): boolean {
  return refusing.validators.has(id) && dropping?.validators.has(id) === true;
}
