// Every /v1 create reads its body the same way, as Form3's go-swagger server reads it: one reader,
// so the resources differ only in their schema and options.
import type { Context } from 'hono';
import { assertOwnOrganisation } from '../auth/middleware.ts';
import type { AppEnv } from '../context.ts';
import { asForm3Reads, readJson } from './body.ts';
import { FORM3_EMPTY_MEANS_ABSENT } from './empty-strings.ts';
import type { Failure } from './failure-list.ts';
import { fieldsOf, withDeclaredKeys } from './json-keys.ts';
import { validateOrThrow } from './validate.ts';

/** What a create of any /v1 resource hands the domain. */
export interface NewRecordBody<A> {
  id: string;
  organisation_id: string;
  attributes: A;
}

/**
 * Reads a create body as Form3 reads it (keys matched to the model's in any case, as Go does; nulls
 * are absent, so are empty strings where Form3's model holds a Go `string`; `type` defaults to the
 * resource's):
 * validated against its schema (400 naming each field and rule), for the caller's own organisation
 * (403 otherwise), ids lower-cased as the store keeps them. Keys the model does not declare are
 * dropped, as Form3 ignores them, unless the simulator runs `--strict`.
 */
export async function readCreateBody<A>(
  c: Context<AppEnv>,
  schema: string,
  type: string,
  options: {
    anyOrganisation?: boolean;
    /** `data.type` must be sent (the fake account API's model), rather than filled in (Form3's). */
    typeRequired?: boolean;
    /** Attributes whose value is one of these, in place of the schema's rule (the fake API's model). */
    attributeEnums?: Readonly<Record<string, readonly string[]>> | undefined;
    strict?: boolean | undefined;
    /**
     * `data.version` may be any integer Go's int64 holds, and is not kept (the record starts at 0),
     * rather than the schema's rule (the fake account API's model: an int64 with no rule).
     */
    anyVersion?: boolean;
    /** Where under `data` an empty string means not given (default: Form3's model's, empty-strings.ts). */
    emptyMeansAbsent?: readonly string[];
    /** Read-only attributes a client may echo (Form3's SDK sends them): dropped before validation. */
    readOnly?: readonly string[];
    /** The domain's rules over the body's data (its attributes an object), reported with the schema's. */
    rules?: (data: { organisation_id?: unknown; attributes: Record<string, unknown> }) => readonly Failure[];
  } = {},
): Promise<NewRecordBody<A>> {
  const read = asForm3Reads(
    withDeclaredKeys(await readJson(c), fieldsOf(schema)),
    options.typeRequired ? undefined : type,
    options.emptyMeansAbsent ?? FORM3_EMPTY_MEANS_ABSENT[schema],
  );
  if (options.anyVersion) withoutInt64Version(read);
  const body = validateOrThrow<{ data: { id: string; organisation_id: string; attributes: A } }>(
    schema,
    withoutAttributes(read, options.readOnly ?? []),
    'body',
    {
      dropUndeclared: options.strict !== true,
      ...(options.attributeEnums ? { enums: attributeEnumPointers(options.attributeEnums) } : {}),
      rules: (value) => {
        const data = (value as { data?: { organisation_id?: unknown; attributes?: unknown } } | null)?.data;
        const attributes = data?.attributes;
        if (!options.rules || attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) {
          return [];
        }
        return options.rules({
          organisation_id: data?.organisation_id,
          attributes: attributes as Record<string, unknown>,
        });
      },
    },
  );
  // With --auth off on accounts, as Form3's fake account API: any organisation, which partitions.
  if (!options.anyOrganisation) assertOwnOrganisation(c.get('organisationId'), body.data.organisation_id);
  return {
    id: body.data.id.toLowerCase(),
    organisation_id: body.data.organisation_id.toLowerCase(),
    attributes: body.data.attributes,
  };
}

/** Go's int64 bounds (a JSON number beyond them does not decode into the fake API's model). */
const INT64_MAX = 2 ** 63;

/** The body without `data.version` when it is an integer an int64 holds (others meet the schema's rule). */
function withoutInt64Version(body: unknown): void {
  const data = (body as { data?: unknown } | null)?.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return;
  const version = (data as { version?: unknown }).version;
  if (Number.isInteger(version) && Math.abs(version as number) < INT64_MAX)
    delete (data as { version?: unknown }).version;
}

/** The body without these keys of `data.attributes`. */
function withoutAttributes(body: unknown, keys: readonly string[]): unknown {
  const data = (body as { data?: { attributes?: unknown } } | null)?.data;
  const attributes = data?.attributes;
  if (keys.length === 0 || attributes === null || typeof attributes !== 'object' || Array.isArray(attributes))
    return body;
  const kept = Object.fromEntries(Object.entries(attributes).filter(([k]) => !keys.includes(k)));
  return { ...(body as object), data: { ...data, attributes: kept } };
}

const enumPointers = new WeakMap<object, Readonly<Record<string, readonly string[]>>>();

/** These attributes' enums keyed by each attribute's JSON pointer in a create body (made once per set). */
function attributeEnumPointers(
  enums: Readonly<Record<string, readonly string[]>>,
): Readonly<Record<string, readonly string[]>> {
  let pointers = enumPointers.get(enums);
  if (!pointers) {
    pointers = Object.fromEntries(
      Object.entries(enums).map(([name, allowed]) => [`/data/attributes/${name}`, allowed]),
    );
    enumPointers.set(enums, pointers);
  }
  return pointers;
}
