// The one set of JSON Schemas (this folder) turned into validators: request bodies, stored records
// and features/ checks all use the same compiled rules, compiled before the first request.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _, Ajv, type ValidateFunction } from 'ajv';
import nextVocabularyModule from 'ajv/dist/vocabularies/next.js';
import addErrorsModule from 'ajv-errors';
import addFormatsModule from 'ajv-formats';
import { FORMATS } from './formats.ts';

// ajv-formats and ajv-errors are CommonJS; their default exports arrive wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;
const addErrors = ((addErrorsModule as unknown as { default?: unknown }).default ?? addErrorsModule) as unknown as (
  ajv: Ajv,
) => Ajv;
const nextVocabulary = ((nextVocabularyModule as unknown as { default?: unknown }).default ??
  nextVocabularyModule) as typeof import('ajv/dist/vocabularies/next.js').default;

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

/** The three sets of validators: as written, dropping undeclared keys, and as the store holds records. */
export type SchemaSet = 'refusing' | 'dropping' | 'storing';
export const SCHEMA_SETS: readonly SchemaSet[] = ['refusing', 'dropping', 'storing'];

/**
 * One Ajv instance holding every schema, compiled once per schema on first use. In the `dropping`
 * set a key an object's schema does not declare (`additionalProperties: false`) is removed rather
 * than refused: a go-swagger server ignores keys its model does not declare. The `storing` set
 * reads records as the store holds them (storedRecordSchemas). With `source`, the validators keep
 * their code for precompile.ts to write out (as an ES module, or CommonJS for a test to run).
 *
 * A rule a schema states with its own words (a combination of keywords, where go-swagger's wording
 * of each would not say what is wrong) carries them in `errorMessage` (ajv-errors), which
 * replaces that rule's errors with one (validate.ts words it). The `dependentRequired` keyword of
 * the OpenAPI 3.1 dialect (JSON Schema 2019-09's, ajv's `next` vocabulary) is added to draft-07's.
 *
 * `inlineRefs: false`: a referenced schema (common.json's definitions, a resource's attributes) is
 * compiled once as a function of its own that every schema referring to it calls, instead of
 * being generated again inside each of them: compiling takes about a quarter of the time.
 */
export function createAjv(set: SchemaSet = 'refusing', source?: 'esm' | 'cjs'): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    inlineRefs: false,
    ...(set === 'dropping' ? { removeAdditional: true } : {}),
    // Written-out code names the formats as `formats` (precompile.ts binds it to FORMATS).
    ...(source ? { code: { source: true, esm: source === 'esm', formats: _`formats` } } : {}),
  });
  addFormats(ajv);
  ajv.addVocabulary(nextVocabulary);
  addErrors(ajv);
  ajv.addFormat('date-time', FORMATS['date-time'] as never);
  for (const schema of set === 'storing' ? storedRecordSchemas() : loadSchemas()) ajv.addSchema(schema);
  return ajv;
}

/** The name a schema's validator is exported by from a precompiled module. */
export function exportNameOf(id: string): string {
  return `validate_${id.replace(/[^A-Za-z0-9]/g, '_')}`;
}

type Precompiled = Record<string, ValidateFunction | undefined>;

/**
 * The validators compiled when the package was built (dist/api/schemas/precompiled-*.js, written by
 * scripts/build.mjs): the built server compiles none at start-up. Running from the sources there
 * are none, and each validator is compiled on first use (or by compileValidators).
 */
async function loadPrecompiled(): Promise<Partial<Record<SchemaSet, Precompiled>>> {
  if (!import.meta.url.endsWith('.js')) return {};
  const out: Partial<Record<SchemaSet, Precompiled>> = {};
  for (const set of SCHEMA_SETS) {
    try {
      out[set] = (await import(`./precompiled-${set}.js`)) as Precompiled;
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    }
  }
  return out;
}

// Loaded without a top-level await: a module with one cannot be require()d, and CommonJS consumers
// of the package require dist/index.js (test/packaging/installed-package.test.ts). Until it has
// loaded, a validator is compiled on first use; compileValidators waits for it.
let precompiled: Partial<Record<SchemaSet, Precompiled>> = {};
const precompiledLoaded: Promise<void> = loadPrecompiled().then(
  (loaded) => {
    precompiled = loaded;
  },
  // A build's validators that cannot be loaded are compiled on use instead: slower, not wrong.
  () => undefined,
);
const validators: Record<SchemaSet, Map<string, ValidateFunction>> = {
  refusing: new Map(),
  dropping: new Map(),
  storing: new Map(),
};
// Each made on its first compile: a built server whose validators are all precompiled makes none.
const instances: Partial<Record<SchemaSet, Ajv>> = {};

/**
 * The validator of a schema; `dropUndeclared` gives the one that removes undeclared keys from the
 * value, `storedRecords` the one that reads a record as the store holds it (storedRecordSchemas).
 */
export function schemaValidator(
  id: string,
  options: { dropUndeclared?: boolean; storedRecords?: boolean } = {},
): ValidateFunction {
  const set: SchemaSet = options.storedRecords ? 'storing' : options.dropUndeclared ? 'dropping' : 'refusing';
  // Kept by id: ajv.getSchema normalises and resolves the id on every call, on every request.
  let fn = validators[set].get(id);
  if (fn) return fn;
  fn = precompiled[set]?.[exportNameOf(id)] ?? (instances[set] ??= createAjv(set)).getSchema(id);
  if (!fn) throw new Error(`no schema ${id} in ${SCHEMA_DIR}`);
  validators[set].set(id, fn);
  return fn;
}

/** A schema as written (its JSON), by id. */
export function schemaOf(id: string): Record<string, unknown> {
  const schema = loadSchemas().find((s) => s.$id === id);
  if (!schema) throw new Error(`no schema ${id} in ${SCHEMA_DIR}`);
  return schema;
}

/**
 * Readies these schemas' validators, both the refusing and the key-dropping one, so that no
 * request pays for a compile (tens of milliseconds on the event loop, while every request in
 * flight waits): precompiled ones are only looked up. The server calls it before it says it is
 * listening; it yields to the event loop between schemas.
 */
export async function compileValidators(ids: readonly string[]): Promise<void> {
  await precompiledLoaded;
  for (const id of ids) {
    schemaValidator(id);
    schemaValidator(id, { dropUndeclared: true });
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Whether both validators of a schema are ready already. */
export function isCompiled(id: string): boolean {
  return validators.refusing.has(id) && validators.dropping.has(id);
}
