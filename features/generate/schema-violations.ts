// The invalid half of generated checks: from a body the schema accepts, every way to break exactly
// one of its constraints (a required key gone, a wrong type, a pattern, an enum, a bound…), each
// naming the field it breaks, so the answer can be checked for naming it.
import { flatten, type ResolveRef, type Schema } from './schema-arbitrary.ts';

export type JsonPath = (string | number)[];

/** One constraint broken at one place of a body. */
export interface Violation {
  /** Where the broken value is (for `required`, the key that went missing). */
  path: JsonPath;
  /** The keyword broken: required, type, pattern, enum, const, format, minLength, maximum… */
  rule: string;
  /** The value put there, or undefined where the key was removed. */
  value?: unknown;
  removed?: true;
}

/** The field a message must name: the last key of the path that is not an array index. */
export function fieldOf(path: JsonPath): string {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'string') return path[i] as string;
  return 'body';
}

/** The body with one violation applied (a copy; the body given is left as it was). */
export function applyViolation(body: unknown, v: Violation): unknown {
  const copy = structuredClone(body) as any;
  let at = copy;
  for (const key of v.path.slice(0, -1)) at = at[key];
  const last = v.path[v.path.length - 1]!;
  if (v.removed) delete at[last];
  else at[last] = v.value;
  return copy;
}

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? 'number' : typeof value;

/** A value of another JSON type than the schema allows. */
function wrongType(types: string[]): unknown | undefined {
  const allows = (t: string) => types.includes(t) || (t === 'integer' && types.includes('number'));
  if (!allows('string')) return 'not-a-number';
  if (!allows('number') && !allows('integer')) return 12345;
  if (!allows('boolean')) return true;
  return undefined;
}

function stringBreaks(s: Record<string, any>, value: string): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern, 'u') : undefined;
  const keepsOthers = (v: string) =>
    (!pattern || pattern.test(v)) && v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity);
  if (pattern) {
    // The first of a few strings that breaks the pattern and nothing else.
    const fits = (v: string) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity);
    const candidate = ['!', '#', ' ', '~~', 'zz!', 'a', '0'].find((c) => fits(c) && !pattern.test(c));
    if (candidate !== undefined) out.push(['pattern', candidate]);
  }
  const formats: Record<string, string> = {
    uuid: 'not-a-uuid',
    date: '2026-13-45',
    'date-time': 'not-a-time',
    uri: 'not a uri',
    email: 'not-an-email',
  };
  if (s.format && formats[s.format] && !pattern) out.push(['format', formats[s.format]]);
  // An empty string is not sent as a break: Form3 reads it as the key absent (decision 029).
  if (s.minLength > 1) {
    const shorter = value.slice(0, s.minLength - 1);
    if (!pattern || pattern.test(shorter)) out.push(['minLength', shorter]);
  }
  if (s.maxLength !== undefined && !s.format) {
    const longer = value.padEnd(s.maxLength + 1, value.slice(-1) || 'a');
    if (!pattern || pattern.test(longer)) out.push(['maxLength', longer]);
  }
  return out.filter(([rule, v]) => rule === 'pattern' || rule === 'format' || !keepsOthers(v as string));
}

function numberBreaks(s: Record<string, any>, value: number, integer: boolean): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  if (s.minimum !== undefined) out.push(['minimum', s.minimum - 1]);
  if (s.exclusiveMinimum !== undefined) out.push(['exclusiveMinimum', s.exclusiveMinimum]);
  if (s.maximum !== undefined) out.push(['maximum', s.maximum + 1]);
  if (s.exclusiveMaximum !== undefined) out.push(['exclusiveMaximum', s.exclusiveMaximum]);
  if (integer) out.push(['type', value + 0.5]);
  return out;
}

/**
 * Every single-constraint violation of a body the schema accepts, found by walking the body beside
 * its schema. Keys the body leaves out are not visited (a constraint on them cannot be broken
 * without adding them). Under oneOf/anyOf only the keywords beside the branches are used.
 */
export function violationsOf(schema: Schema, value: unknown, resolve: ResolveRef, path: JsonPath = []): Violation[] {
  const s = flatten(schema, resolve);
  const out: Violation[] = [];
  const at = (rule: string, v: unknown) => out.push({ path, rule, value: v });
  if (path.length > 0) {
    if ('const' in s) {
      at('const', typeof s.const === 'string' ? `${s.const}x` : typeof s.const === 'number' ? s.const + 1 : 'x');
      return out;
    }
    if (Array.isArray(s.enum)) {
      at('enum', s.enum.every((e: unknown) => typeof e === 'number') ? -987654 : 'not-one-of-the-enum');
      return out;
    }
    const types = s.type === undefined ? [typeOf(value)] : Array.isArray(s.type) ? s.type : [s.type];
    const other = wrongType(types);
    if (other !== undefined) at('type', other);
  }
  if (typeof value === 'string') for (const [rule, v] of stringBreaks(s, value)) at(rule, v);
  else if (typeof value === 'number') for (const [rule, v] of numberBreaks(s, value, s.type === 'integer')) at(rule, v);
  else if (Array.isArray(value)) {
    if (s.minItems > 0) at('minItems', value.slice(0, s.minItems - 1));
    if (s.maxItems !== undefined && value.length > 0 && !s.uniqueItems)
      at(
        'maxItems',
        Array.from({ length: s.maxItems + 1 }, (_, i) => value[i % value.length]),
      );
    if (s.items !== undefined && typeof s.items === 'object')
      value.forEach((item, i) => out.push(...violationsOf(s.items, item, resolve, [...path, i])));
  } else if (value && typeof value === 'object') {
    const props = (s.properties ?? {}) as Record<string, Schema>;
    // A required key with a default is filled in when absent (as go-swagger reads a body): leaving
    // it out breaks nothing.
    const defaulted = (key: string) => props[key] !== undefined && 'default' in flatten(props[key], resolve);
    for (const key of (s.required ?? []) as string[])
      if (key in (value as object) && !defaulted(key))
        out.push({ path: [...path, key], rule: 'required', removed: true });
    for (const [key, v] of Object.entries(value as Record<string, unknown>))
      if (props[key] !== undefined && props[key] !== false && flatten(props[key], resolve).readOnly !== true)
        out.push(...violationsOf(props[key], v, resolve, [...path, key]));
  }
  return out;
}
