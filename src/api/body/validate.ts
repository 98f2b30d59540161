// A body that breaks its schema gets a 400 that names each field and rule, worded as go-swagger words
// it: ajv's errors turned into that message.
import type { ErrorObject } from 'ajv';
import { schemaValidator } from '../schemas/index.ts';
import { ApiError } from '../wire/errors.ts';
import { containerOf, type Failure, failureList, flatFailureList, valueAt } from './failure-list.ts';

/**
 * The field as a client knows it: `/data/attributes/name/4` → `name.4` (an attribute is named bare),
 * `/data/attributes` → `attributes`, `/data/id` → `id`, `/data` → `data`, the root → `` (the body).
 */
export function fieldName(instancePath: string, root: 'body' | 'query' = 'body'): string {
  const path = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  if (root !== 'body') return path;
  if (path === 'data' || path === 'data.attributes') return path.slice(path.lastIndexOf('.') + 1);
  return path.replace(/^data\.attributes\./, '').replace(/^data\./, '');
}

/** The name of a child of the object at `instancePath` (for required / additionalProperties). */
function childName(instancePath: string, child: string, root: 'body' | 'query'): string {
  return fieldName(`${instancePath}/${child.replace(/~/g, '~0').replace(/\//g, '~1')}`, root);
}

/** An `errorMessage` that is the rule alone (`should be …`, `must …`): the field it is on is named before it. */
const RULE_ALONE = /^(should|must) /;

function describe(e: ErrorObject, root: 'body' | 'query'): string | undefined {
  const p = e.params as Record<string, unknown>;
  const at = fieldName(e.instancePath, root);
  // The whole body (or query) is named once: `body must be of type object`.
  const where = (f: string) => (f ? `${f} in ${root}` : root);
  switch (e.keyword) {
    case 'required':
      return `${where(childName(e.instancePath, String(p.missingProperty), root))} is required`;
    case 'type':
      return `${where(at)} must be of type ${String(p.type)}`;
    case 'format':
      return `${where(at)} must be of type ${String(p.format)}`;
    case 'maxItems':
      return `${where(at)} should have at most ${String(p.limit)} items`;
    case 'minItems':
      return `${where(at)} should have at least ${String(p.limit)} items`;
    case 'maxLength':
      return `${where(at)} should be at most ${String(p.limit)} chars long`;
    case 'minLength':
      return `${where(at)} should be at least ${String(p.limit)} chars long`;
    case 'pattern':
      return `${where(at)} should match '${String(p.pattern)}'`;
    case 'enum':
      return `${where(at)} should be one of [${(p.allowedValues as unknown[]).map(String).join(' ')}]`;
    case 'const':
      return `${where(at)} should be equal to ${JSON.stringify(p.allowedValue)}`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${where(at)} should be ${e.keyword === 'minimum' ? 'greater than or equal to' : 'greater than'} ${String(p.limit)}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `${where(at)} should be ${e.keyword === 'maximum' ? 'less than or equal to' : 'less than'} ${String(p.limit)}`;
    case 'additionalProperties':
      return `${where(childName(e.instancePath, String(p.additionalProperty), root))} is not allowed`;
    case 'maxProperties':
      return `${where(at)} should have at most ${String(p.limit)} properties`;
    case 'minProperties':
      return `${where(at)} should have at least ${String(p.limit)} properties`;
    case 'uniqueItems':
      return `${where(at)} should not have duplicate items`;
    case 'false schema':
      // A property a body may not carry: in these schemas, always a read-only one (has_secret).
      return `${where(at)} is read-only`;
    case 'errorMessage':
      // A rule the schema words itself (ajv-errors): the rule of the field it is on, or a whole line.
      return RULE_ALONE.test(e.message ?? '') ? `${where(at)} ${e.message}` : String(e.message);
    case 'if':
    case 'anyOf':
    case 'oneOf':
    case 'allOf':
      return undefined; // the errors of the branches say more
    default:
      return `${where(at)} ${e.message ?? 'is invalid'}`;
  }
}

/** Human messages for ajv errors, one per violated rule, without repeats. */
export function describeErrors(errors: ErrorObject[] | null | undefined, root: 'body' | 'query' = 'body'): string[] {
  const out = new Set<string>();
  for (const e of errors ?? []) {
    const m = describe(e, root);
    if (m) out.add(m);
  }
  if (out.size === 0 && errors && errors.length > 0) out.add(`${root} is invalid`);
  return [...out];
}

/** Where go-swagger would report an error: the object that validates it, and the property concerned. */
function placeOf(e: ErrorObject, body: unknown): Pick<Failure, 'container' | 'field'> {
  const p = e.params as Record<string, unknown>;
  // A rule worded by its schema is reported where the first error it replaces would have been.
  const replaced = e.keyword === 'errorMessage' ? (p.errors as ErrorObject[] | undefined)?.[0] : undefined;
  if (replaced) return placeOf(replaced, body);
  if (e.keyword === 'required' || e.keyword === 'dependentRequired' || e.keyword === 'additionalProperties') {
    const child = String(e.keyword === 'additionalProperties' ? p.additionalProperty : p.missingProperty);
    return { container: containerOf(body, e.instancePath), field: child };
  }
  const parent = e.instancePath.slice(0, Math.max(0, e.instancePath.lastIndexOf('/')));
  const container = e.instancePath === '' ? '' : containerOf(body, parent);
  const field = e.instancePath.slice(container.length).split('/')[1] ?? '';
  return { container, field };
}

/**
 * The 400 text for a failed validation, as go-swagger words it: a body's failures nested once per
 * object level (failure-list.ts), a query's in one list.
 */
export function failureText(
  errors: ErrorObject[] | null | undefined,
  value: unknown,
  root: 'body' | 'query',
  extra: readonly Failure[] = [],
): string {
  if (root === 'query') return flatFailureList(describeErrors(errors, root));
  const failures: Failure[] = [...extra];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    let text = describe(e, root);
    if (!text) continue;
    // go-swagger quotes the value that is no uuid: `id in body must be of type uuid: "invalid uuid"`.
    if (e.keyword === 'format' && (e.params as { format?: string }).format === 'uuid') {
      const given = valueAt(value, e.instancePath);
      if (typeof given === 'string') text += `: ${JSON.stringify(given)}`;
    }
    if (seen.has(text)) continue;
    seen.add(text);
    failures.push({ ...placeOf(e, value), text });
  }
  if (failures.length === 0) failures.push({ container: '', field: '', text: `${root} is invalid` });
  return failureList(value, failures);
}

/**
 * Validates against a schema in src/api/schemas or throws a 400 naming each field and rule. With
 * `dropUndeclared`, keys the schema does not declare are removed from `value` instead of refused.
 * `rules` are the domain's failures of the same body, reported in the one list (given the value
 * once undeclared keys are dropped). `enums` replace the schema's rule for the value at a JSON
 * pointer (its `pattern` or `enum`) with another model's enum, worded as go-swagger words one:
 * the fake account API's model allows other values than Form3's in two attributes. `wordedByCaller`
 * drops the errors of a rule the caller checks again itself, to word it with what the body gave.
 */
export function validateOrThrow<T>(
  schemaId: string,
  value: unknown,
  root: 'body' | 'query' = 'body',
  options: {
    dropUndeclared?: boolean;
    rules?: (value: unknown) => readonly Failure[];
    enums?: Readonly<Record<string, readonly string[]>>;
    wordedByCaller?: (error: ErrorObject) => boolean;
  } = {},
): T {
  const validate = schemaValidator(schemaId, { dropUndeclared: options.dropUndeclared === true });
  let errors = validate(value) ? [] : (validate.errors ?? []);
  if (options.wordedByCaller) errors = errors.filter((e) => !options.wordedByCaller!(e));
  const extra = [...(options.rules?.(value) ?? [])];
  if (options.enums) {
    const enums = options.enums;
    errors = errors.filter((e) => !(e.instancePath in enums && (e.keyword === 'pattern' || e.keyword === 'enum')));
    const typeRefused = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
    extra.push(...enumFailures(value, enums, root, typeRefused));
  }
  if (errors.length > 0 || extra.length > 0) throw new ApiError(400, failureText(errors, value, root, extra));
  return value as T;
}

/** The failures of the values at these pointers outside their enum. */
function enumFailures(
  value: unknown,
  enums: Readonly<Record<string, readonly string[]>>,
  root: 'body' | 'query',
  typeRefused: ReadonlySet<string>,
): Failure[] {
  const failures: Failure[] = [];
  for (const [pointer, allowed] of Object.entries(enums)) {
    const given = valueAt(value, pointer);
    // A value of the wrong type is the schema's failure (`must be of type string`), kept above.
    if (given === undefined || typeRefused.has(pointer) || allowed.includes(given as string)) continue;
    const container = containerOf(value, pointer.slice(0, pointer.lastIndexOf('/')));
    failures.push({
      container,
      field: pointer.slice(container.length).split('/')[1] ?? '',
      text: `${fieldName(pointer, root)} in ${root} should be one of [${allowed.join(' ')}]`,
    });
  }
  return failures;
}
