// Where an empty string in a request body means "not given", as a go-swagger server reads it. Its
// models hold an optional string as a Go `string` (not a pointer) and its generated Validate skips a
// zero value (`if swag.IsZero(m.X) { // not required`), so `""` is never checked against the
// field's rules, and the model's `omitempty` leaves it out of every answer. A pointer field
// (`*string`: `country`, `account_classification` of an account create) keeps `""` as a value, and
// its rules apply. A required Go `string` (the fake account API's `id`, `organisation_id`, `type`)
// reads `""` as missing: `id in body is required`. docs/decisions/029-bodies-as-go-decodes-them.md.

/**
 * The paths, under `data`, of the fields a Go `string` holds in go-form3's generated models
 * (`pkg/generated/models`, Form3's swagger), per request body schema. `*` stands for every item of
 * an array. Dates (`strfmt.Date`) are not strings to Go: `""` does not parse, so none is listed.
 */
export const FORM3_EMPTY_MEANS_ABSENT: Readonly<Record<string, readonly string[]>> = (() => {
  // AccountAttributes and AccountUpdateAttributes share these; their nested models too.
  const accountAttributes = [
    'acceptance_qualifier',
    'account_number',
    'bank_account_name',
    'bank_id',
    'bank_id_code',
    'base_currency',
    'bic',
    'customer_id',
    'first_name',
    'iban',
    'secondary_identification',
    'status',
    'status_reason',
    'title',
    'validation_type',
    ...[
      'birth_country',
      'city',
      'country',
      'identification',
      'identification_issuer',
      'identification_scheme',
      'identification_scheme_code',
    ].map((f) => `private_identification/${f}`),
    ...[
      'city',
      'country',
      'identification',
      'identification_issuer',
      'identification_scheme',
      'identification_scheme_code',
      'registration_number',
      'tax_residency',
      'actors/*/residency',
      'actors/*/role',
    ].map((f) => `organisation_identification/${f}`),
    'switched_account_details/account_with/bank_name',
    'switched_account_details/account_with/bank_party_id',
  ];
  const attributes = (fields: readonly string[]) => fields.map((f) => `attributes/${f}`);
  return {
    // Account: `type` a string; AccountAttributes' `type` (deprecated) a string, `country` and
    // `account_classification` pointers.
    'account-create': ['type', ...attributes([...accountAttributes, 'type'])],
    // AccountUpdateAttributes holds `country`, `account_classification` and `name_matching_status`
    // as strings, `type` as a pointer.
    'account-update': [
      'type',
      ...attributes([...accountAttributes, 'account_classification', 'country', 'name_matching_status']),
    ],
    'claim-create': ['type', 'attributes/contact_name'],
    'claim-submission-create': ['type'],
    'claim-reversal-create': ['type'],
    'claim-reversal-submission-create': ['type'],
    'name-verification-create': [
      'type',
      ...attributes(['account_classification', 'psp_request_id', 'secondary_identification']),
    ],
    // SubscriptionAttributes: `event_type` and `record_type` pointers (required).
    'subscription-create': ['type', ...attributes(['callback_transport', 'callback_uri', 'filter', 'user_id'])],
    // SubscriptionUpdateAttributes (its read-only `user_id` a string too, dropped from every PATCH).
    'subscription-update': [
      'type',
      ...attributes(['callback_transport', 'callback_uri', 'event_type', 'filter', 'record_type']),
    ],
  };
})();

/**
 * The paths of Form3's model for this schema, with another model's own in place of Form3's for the
 * attributes that model declares (the fake account API's account: `model.attributes`); Form3's rule
 * still holds for the attributes only Form3's model has, which that API ignores and the simulator
 * stores.
 */
export function emptyMeansAbsent(
  schema: string,
  model?: { readonly attributes: readonly string[]; readonly emptyMeansAbsent: readonly string[] },
): readonly string[] {
  const form3 = FORM3_EMPTY_MEANS_ABSENT[schema] ?? [];
  if (!model) return form3;
  const declared = new Set(model.attributes);
  const form3Only = form3.filter((path) => path.startsWith('attributes/') && !declared.has(path.split('/')[1]!));
  return [...model.emptyMeansAbsent, ...form3Only];
}

/** Paths as a tree of steps, made once per list: a request walks it without splitting a string. */
interface Steps {
  /** An empty string here is dropped. */
  leaf: boolean;
  readonly next: Map<string, Steps>;
}
const compiled = new WeakMap<readonly string[], Steps>();

function stepsOf(paths: readonly string[]): Steps {
  let root = compiled.get(paths);
  if (!root) {
    root = { leaf: false, next: new Map() };
    for (const path of paths) {
      let at = root;
      for (const step of path.split('/')) {
        let next = at.next.get(step);
        if (!next) at.next.set(step, (next = { leaf: false, next: new Map() }));
        at = next;
      }
      at.leaf = true;
    }
    compiled.set(paths, root);
  }
  return root;
}

/**
 * The body with every empty string at these paths under `data` removed, as if never sent. The
 * body just parsed is changed in place (nothing else holds it).
 */
export function withoutEmptyStrings(body: unknown, paths: readonly string[]): unknown {
  const data = (body as { data?: unknown } | null)?.data;
  if (paths.length === 0 || data === null || typeof data !== 'object' || Array.isArray(data)) return body;
  dropEmpty(data, stepsOf(paths));
  return body;
}

function dropEmpty(at: unknown, steps: Steps): void {
  if (at === null || typeof at !== 'object') return;
  if (Array.isArray(at)) {
    const items = steps.next.get('*');
    if (items) for (const item of at) dropEmpty(item, items);
    return;
  }
  const object = at as Record<string, unknown>;
  for (const [step, next] of steps.next) {
    if (!Object.hasOwn(object, step)) continue;
    const value = object[step];
    if (next.leaf && value === '') delete object[step];
    else if (next.next.size > 0) dropEmpty(value, next);
  }
}
