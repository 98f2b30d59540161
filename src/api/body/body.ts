// How a request body becomes the value a route validates: media type, JSON parsing and depth, and
// Form3's go-swagger reading of nulls, empty strings and omitted types (decision 009).
import type { Context } from 'hono';
import { ApiError } from '../wire/errors.ts';
import type { WireRules } from '../wire/wire-rules.ts';
import { withoutEmptyStrings } from './empty-strings.ts';
import { JSON_TOO_DEEP, nestedDeeperThan } from './json-depth.ts';

export const JSON_MEDIA_TYPES = ['application/json', 'application/vnd.api+json'];

export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * The one reader of a JSON request body's text, for every route and both error shapes (Form3's,
 * and Open Banking's on the name-verification path): a 400 naming why when it is empty, not JSON,
 * or nested deeper than MAX_JSON_DEPTH.
 */
export function parseJsonBody(text: string): unknown {
  // Before parsing: nothing that walks a body (null stripping, copies, schema checks) sees one too deep.
  if (nestedDeeperThan(text)) throw new ApiError(400, JSON_TOO_DEEP);
  try {
    return JSON.parse(text);
  } catch (err) {
    // Blank is told apart only once parsing failed (a valid body is never blank).
    if (text.trim() === '') throw new ApiError(400, 'request body is empty; a JSON object is required');
    throw new ApiError(400, `request body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * Reads a JSON request body: 415 for another content type (or none, unless the wire reads a body
 * without one as JSON, as the fake account API's server does; it reads more media types as JSON
 * too), 400 as parseJsonBody says. Media types match in any case.
 */
export async function readJson(c: Context): Promise<unknown> {
  const header = c.req.header('content-type');
  const wire = c.get('wire') as WireRules | undefined;
  const untypedIsJson = header === undefined && wire?.untypedBodyIsJson === true;
  const type = untypedIsJson ? 'application/json' : mediaType(header);
  if (!JSON_MEDIA_TYPES.includes(type) && !wire?.moreJsonMediaTypes.includes(type)) {
    const allowed = [...JSON_MEDIA_TYPES, ...(wire?.moreJsonMediaTypes ?? [])];
    throw new ApiError(
      415,
      `Content-Type must be ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}, got ${type || 'none'}`,
    );
  }
  return parseJsonBody(await c.req.text());
}

/** The JSON body of an action whose body is optional: none (or whitespace) reads as `{}`. */
export async function optionalJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  return text.trim() === '' ? {} : readJson(c);
}

/**
 * Go's zero date: a go-swagger client sends it for an optional `strfmt.Date` it left unset (Form3's
 * SDK does for a claim's processing_date and request_date), meaning "not given".
 */
const GO_ZERO_DATE = '0001-01-01';

/**
 * Drops every key whose value is null or Go's zero date, in objects at any depth (arrays keep their
 * items). A value with none such is answered as it is: most bodies have none, and copying each one
 * key by key is a visible share of a create.
 */
function withoutNulls(value: unknown): unknown {
  return hasAbsent(value) ? copyWithoutAbsent(value) : value;
}

/** Whether an object at any depth holds a key withoutNulls drops. */
function hasAbsent(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasAbsent);
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const v = (value as Record<string, unknown>)[k];
    if (v === null || v === GO_ZERO_DATE || hasAbsent(v)) return true;
  }
  return false;
}

function copyWithoutAbsent(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v !== null && typeof v === 'object' ? copyWithoutAbsent(v) : v));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // defineProperty, not assignment: a key named __proto__ stays a key (and is refused by name).
    if (v !== null && v !== GO_ZERO_DATE)
      Object.defineProperty(out, k, {
        value: copyWithoutAbsent(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

/**
 * A /v1 resource body as Form3's go-swagger server reads it: inside `data`, a null value (or Go's
 * zero date 0001-01-01, an unset date of the SDK) means the field is absent (so a required one is
 * "required", an optional one is left out: Form3's Go SDK sends `"name": null` in a PATCH), so does
 * an empty string where the model holds a Go `string` (`emptyMeansAbsent`, paths under `data`:
 * empty-strings.ts), and an omitted `type` is the resource's own (`defaultType`; undefined where the
 * model requires `type`, as the fake account API's does).
 */
export function asForm3Reads(
  body: unknown,
  defaultType: string | undefined,
  emptyMeansAbsent: readonly string[] = [],
): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const data = (body as { data?: unknown }).data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return body;
  const read = { ...body, data: withoutNulls(data) as Record<string, unknown> };
  withoutEmptyStrings(read, emptyMeansAbsent);
  if (defaultType !== undefined) read.data.type ??= defaultType;
  return read;
}
