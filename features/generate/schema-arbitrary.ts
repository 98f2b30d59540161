// Generated checks need request bodies a JSON Schema accepts, made by fast-check so that a failing
// one shrinks: this turns the keywords the published document uses into fast-check arbitraries.
// What it cannot build directly (if/then, not, dependentRequired) the caller filters with a validator.
import fc from 'fast-check';

export type Schema = Record<string, any> | boolean;

/** Finds what a `$ref` points at (`#/components/schemas/account/$defs/attributes`). */
export type ResolveRef = (ref: string) => Schema;

/** A `$ref` inside a document, followed as a JSON pointer from the document's root. */
export function pointerResolver(root: unknown): ResolveRef {
  return (ref) => {
    if (!ref.startsWith('#')) throw new Error(`only local $ref are followed, got ${ref}`);
    let at: any = root;
    for (const raw of ref.slice(1).split('/').filter(Boolean)) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      at = at?.[key];
      if (at === undefined) throw new Error(`$ref ${ref} names nothing`);
    }
    return at as Schema;
  };
}

/** Keywords whose subschemas merge rather than replace when allOf is flattened. */
function mergeTwo(a: Record<string, any>, b: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    if (k === 'properties' && out.properties) {
      const props = { ...out.properties };
      for (const [p, s] of Object.entries(v as Record<string, Schema>))
        props[p] = props[p] === undefined ? s : s === false || props[p] === false ? false : { allOf: [props[p], s] };
      out.properties = props;
    } else if (k === 'required' && out.required) out.required = [...new Set([...out.required, ...(v as string[])])];
    else if ((k === 'anyOf' || k === 'oneOf') && out[k]) out.allOf = [...(out.allOf ?? []), { [k]: v }];
    else out[k] = v;
  }
  return out;
}

/** The schema with its `$ref` followed and its `allOf` merged in: one object to read keywords from. */
export function flatten(schema: Schema, resolve: ResolveRef, depth = 0): Record<string, any> {
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  if (depth > 40) throw new Error('schema nests too deep to flatten (a $ref cycle?)');
  let out: Record<string, any> = {};
  const { $ref, allOf, ...rest } = schema;
  if (typeof $ref === 'string') out = flatten(resolve($ref), resolve, depth + 1);
  out = mergeTwo(out, rest);
  for (const part of (allOf as Schema[] | undefined) ?? []) out = mergeTwo(out, flatten(part, resolve, depth + 1));
  if (out.allOf) {
    const nested = out.allOf as Schema[];
    delete out.allOf;
    for (const part of nested) out = mergeTwo(out, flatten(part, resolve, depth + 1));
  }
  return out;
}

const isoDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

function stringArbitrary(s: Record<string, any>): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Math.max(min + 16, 16);
  const fits = (v: string) => v.length >= min && v.length <= max;
  if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern, 'u')).filter(fits);
  switch (s.format) {
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'date':
      return isoDate.map((d) => d.slice(0, 10));
    case 'date-time':
      return isoDate;
    case 'uri':
    case 'url':
      return fc.webUrl().filter(fits);
    case 'email':
      return fc.emailAddress().filter(fits);
  }
  return fc.string({ minLength: min, maxLength: Math.min(max, min + 24) });
}

function numberArbitrary(s: Record<string, any>, integer: boolean): fc.Arbitrary<number> {
  const low = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum : -1_000_000);
  const high = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum : 1_000_000);
  if (integer) {
    const min = s.exclusiveMinimum !== undefined && s.minimum === undefined ? Math.floor(low) + 1 : Math.ceil(low);
    const max = s.exclusiveMaximum !== undefined && s.maximum === undefined ? Math.ceil(high) - 1 : Math.floor(high);
    return fc.integer({ min, max });
  }
  return fc.double({
    min: low,
    max: high,
    minExcluded: s.exclusiveMinimum !== undefined && s.minimum === undefined,
    maxExcluded: s.exclusiveMaximum !== undefined && s.maximum === undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

/** The JSON type a schema without `type` is about, read from the keywords it uses. */
function impliedType(s: Record<string, any>): string | undefined {
  if (s.properties || s.required || s.additionalProperties !== undefined) return 'object';
  if (s.items || s.minItems !== undefined) return 'array';
  if (s.pattern || s.format || s.minLength !== undefined || s.maxLength !== undefined) return 'string';
  if (s.minimum !== undefined || s.maximum !== undefined) return 'number';
  return undefined;
}

function objectArbitrary(s: Record<string, any>, resolve: ResolveRef, depth: number): fc.Arbitrary<unknown> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
    // Read-only keys are the server's to give (OpenAPI's readOnly): a request leaves them out.
    if (sub === false || (flatten(sub, resolve).readOnly === true && !(s.required ?? []).includes(key))) continue;
    model[key] = arbitraryOf(sub, resolve, depth + 1);
  }
  const required = ((s.required ?? []) as string[]).filter((k) => k in model);
  // A required key the schema gives no schema for: any short string keeps it present.
  for (const k of (s.required ?? []) as string[])
    if (!(k in model) && s.properties?.[k] !== false) model[k] = fc.string();
  const record = fc.record(model, { requiredKeys: [...new Set([...required, ...((s.required ?? []) as string[])])] });
  const extra = s.additionalProperties;
  if (extra && typeof extra === 'object' && Object.keys(model).length === 0) {
    const keys = s.propertyNames ? stringArbitrary(flatten(s.propertyNames, resolve)) : fc.string({ minLength: 1 });
    return fc.dictionary(keys, arbitraryOf(extra, resolve, depth + 1), {
      maxKeys: Math.min(s.maxProperties ?? 3, 3),
    });
  }
  return record;
}

/**
 * A fast-check arbitrary of values the schema's own keywords allow: types, const, enum, patterns,
 * formats, lengths, bounds, items, required and optional properties, allOf, anyOf, oneOf. Values
 * that break if/then, not or dependentRequired may come out: filter with the schema's validator.
 */
export function arbitraryOf(schema: Schema, resolve: ResolveRef, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 24) return fc.constant(null);
  const s = flatten(schema, resolve);
  const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (branches) {
    const { oneOf: _o, anyOf: _a, ...rest } = s;
    return fc.oneof(...branches.map((b) => arbitraryOf(mergeTwo(rest, flatten(b, resolve)), resolve, depth + 1)));
  }
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const type = Array.isArray(s.type) ? s.type : [s.type ?? impliedType(s)];
  const one = (t: string | undefined): fc.Arbitrary<unknown> => {
    switch (t) {
      case 'string':
        return stringArbitrary(s);
      case 'integer':
        return numberArbitrary(s, true);
      case 'number':
        return numberArbitrary(s, false);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const minLength = s.minItems ?? 0;
        const maxLength = Math.min(s.maxItems ?? minLength + 3, minLength + 3);
        const items = s.items === undefined ? fc.string() : arbitraryOf(s.items as Schema, resolve, depth + 1);
        return s.uniqueItems
          ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
          : fc.array(items, { minLength, maxLength });
      }
      case 'object':
        return objectArbitrary(s, resolve, depth);
      default:
        return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
    }
  };
  return type.length === 1 ? one(type[0]) : fc.oneof(...type.map(one));
}
