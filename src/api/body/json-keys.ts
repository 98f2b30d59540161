// JSON keys matched to a model's fields as Go's encoding/json matches them: a key names the field
// whose name it equals, else one whose name it equals in any case (`{"Data": {…}}` is `data`).
// Form3's servers and its fake account API are Go: a go-swagger server decodes a body with
// encoding/json into its model, and validates the model, never the keys as sent.
// docs/decisions/029-bodies-as-go-decodes-them.md.
import { loadSchemas } from '../schemas/index.ts';

/** The fields of an object of a schema, by the folded name, and what each holds. */
interface Fields {
  /** Declared name by folded name (the first declared wins where two fold alike). */
  readonly names: Map<string, string>;
  /** What a declared field holds, by declared name. */
  readonly children: Map<string, Fields>;
  /** What an array's items hold. */
  items?: Fields;
}

/**
 * A name as Go folds it to compare (bytes.EqualFold, Unicode simple folding): the model's names are
 * ASCII, and the only other characters that fold onto ASCII letters are the Kelvin sign (K, which
 * toLowerCase maps to k) and the long s (ſ).
 */
function fold(name: string): string {
  return name.toLowerCase().replaceAll('ſ', 's');
}

type Json = Record<string, unknown>;
let schemas: Map<string, Json> | undefined;
const trees = new Map<string, Fields>();

/** The fields of a request body schema (made once, on first use, for the process). */
export function fieldsOf(schemaId: string): Fields {
  let tree = trees.get(schemaId);
  if (!tree) {
    schemas ??= new Map(loadSchemas().map((s) => [s.$id, s]));
    tree = build(schemaId, '', new Map());
    trees.set(schemaId, tree);
  }
  return tree;
}

/** The fields of the subschema at this place, its `$ref`s followed, its branches joined. */
function build(schema: string, pointer: string, seen: Map<string, Fields>): Fields {
  const place = `${schema}#${pointer}`;
  const known = seen.get(place);
  if (known) return known; // a schema that refers to itself
  const fields: Fields = { names: new Map(), children: new Map() };
  seen.set(place, fields);
  let node: unknown = schemas!.get(schema);
  for (const step of pointer.split('/').filter(Boolean)) node = (node as Json | undefined)?.[step];
  if (node === null || typeof node !== 'object') return fields;
  const n = node as Json;
  const join = (other: Fields) => {
    for (const [f, name] of other.names) if (!fields.names.has(f)) fields.names.set(f, name);
    for (const [name, child] of other.children) if (!fields.children.has(name)) fields.children.set(name, child);
    fields.items ??= other.items;
  };
  if (typeof n.$ref === 'string') {
    const [file, ref] = n.$ref.split('#');
    join(build(file || schema, ref ?? '', seen));
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = n[key];
    if (Array.isArray(branches))
      for (let i = 0; i < branches.length; i++) join(build(schema, `${pointer}/${key}/${i}`, seen));
  }
  const properties = n.properties;
  if (properties !== null && typeof properties === 'object') {
    for (const name of Object.keys(properties)) {
      // An exact name is its own, whatever folded onto it first.
      if (!fields.names.has(fold(name)) || fold(name) === name) fields.names.set(fold(name), name);
      fields.children.set(name, build(schema, `${pointer}/properties/${pointerStep(name)}`, seen));
    }
  }
  if (n.items !== null && typeof n.items === 'object') fields.items = build(schema, `${pointer}/items`, seen);
  return fields;
}

function pointerStep(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * The body with each key that names a field of the schema in another case renamed to the field's
 * name, at every depth, as Go decodes it. Keys that name no field are left (undeclared: ignored,
 * or refused with --strict). Two keys for one field: the later wins, objects merged into the
 * earlier (Go decodes the later into the struct the earlier filled). The body just parsed is
 * changed in place; one with every key as declared is answered untouched.
 */
export function withDeclaredKeys(body: unknown, fields: Fields): unknown {
  rename(body, fields);
  return body;
}

function rename(value: unknown, fields: Fields): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    if (fields.items) for (const item of value) rename(item, fields.items);
    return;
  }
  const object = value as Json;
  let misnamed: string[] | undefined;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const child = fields.children.get(key);
    if (child) rename(object[key], child);
    else if (fields.names.has(fold(key))) (misnamed ??= []).push(key);
  }
  if (!misnamed) return;
  // In the body's order, so that the later of two keys for one field wins.
  const entries = Object.entries(object);
  for (const key of Object.keys(object)) delete object[key];
  for (const [key, v] of entries) {
    const name = misnamed.includes(key) ? fields.names.get(fold(key))! : key;
    if (name !== key) rename(v, fields.children.get(name)!);
    define(object, name, Object.hasOwn(object, name) ? merged(object[name], v) : v);
  }
}

/** The later value of a field decoded over the earlier: objects merge, anything else replaces. */
function merged(earlier: unknown, later: unknown): unknown {
  if (!isObject(earlier) || !isObject(later)) return later;
  const out: Json = { ...earlier };
  for (const [k, v] of Object.entries(later)) define(out, k, Object.hasOwn(out, k) ? merged(out[k], v) : v);
  return out;
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Sets a key as data, a key named __proto__ included (refused by name later, never a prototype). */
function define(object: Json, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
