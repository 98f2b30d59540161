// The catalogue of malformed account requests: each must get a 4xx whose error_message names the
// field (or the part of the request) at fault — never a 500. Used by the vitest table test; the
// Scenario Outlines of features/validation.feature carry the same rows.

/** A value that removes the key it stands for when merged into the valid body. */
export const OMIT = '$omit';

export interface MalformedRequest {
  label: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  /** Relative to /v1/organisation/accounts; `{existing}` is an account that exists. */
  path: string;
  /** Merged into the attributes of a valid create (or PATCH) body. */
  attributes?: Record<string, unknown>;
  /** Merged into `data` of a valid create (or PATCH) body. */
  data?: Record<string, unknown>;
  /** Sent as is instead of a built body. */
  raw?: string;
  /** Content-Type to send (null: none); application/json when a body is sent. */
  contentType?: string | null;
  status: number;
  /** A part of error_message, naming the field and the rule. */
  message: string;
}

/** The attributes of a valid GB account. */
export function validAttributes(): Record<string, unknown> {
  return {
    country: 'GB',
    bank_id: '400300',
    bank_id_code: 'GBDSC',
    account_number: '41426819',
    name: ['Samantha Holder'],
  };
}

function merge(base: Record<string, unknown>, patch: Record<string, unknown> = {}): Record<string, unknown> {
  const out = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === OMIT) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** The body a row sends (or undefined for none). */
export function bodyOf(row: MalformedRequest, ids: { id: string; organisation_id: string }): string | undefined {
  if (row.raw !== undefined) return row.raw.replaceAll('{organisation}', ids.organisation_id);
  if (row.method === 'GET' || row.method === 'DELETE') return undefined;
  if (row.method === 'PATCH') {
    const data = merge({ version: 0, attributes: merge({}, row.attributes) }, row.data);
    return JSON.stringify({ data });
  }
  const attributes = merge(validAttributes(), row.attributes);
  const data = merge({ id: ids.id, organisation_id: ids.organisation_id, type: 'accounts', attributes }, row.data);
  return JSON.stringify({ data });
}

const long = (n: number, c = 'A') => c.repeat(n);
const create = (
  label: string,
  attributes: Record<string, unknown>,
  message: string,
  status = 400,
): MalformedRequest => ({
  label,
  method: 'POST',
  path: '',
  attributes,
  status,
  message,
});
const createData = (label: string, data: Record<string, unknown>, message: string): MalformedRequest => ({
  label,
  method: 'POST',
  path: '',
  data,
  status: 400,
  message,
});
const raw = (
  label: string,
  method: MalformedRequest['method'],
  path: string,
  body: string | undefined,
  status: number,
  message: string,
  contentType?: string | null,
): MalformedRequest => ({
  label,
  method,
  path,
  ...(body !== undefined ? { raw: body } : {}),
  ...(contentType !== undefined ? { contentType } : {}),
  status,
  message,
});
const patch = (label: string, data: Record<string, unknown>, message: string, status = 400): MalformedRequest => ({
  label,
  method: 'PATCH',
  path: '/{existing}',
  data,
  status,
  message,
});

export const MALFORMED_ACCOUNT_REQUESTS: MalformedRequest[] = [
  // The body as a whole
  raw('truncated JSON', 'POST', '', '{"data": {"id": ', 400, 'request body is not valid JSON'),
  raw('JSON with a trailing comma', 'POST', '', '{"data": {},}', 400, 'request body is not valid JSON'),
  raw('an empty body', 'POST', '', '', 400, 'request body is empty'),
  raw('a body of null', 'POST', '', 'null', 400, 'body must be of type object'),
  raw('an array body', 'POST', '', '[]', 400, 'body must be of type object'),
  raw('a string body', 'POST', '', '"accounts"', 400, 'body must be of type object'),
  raw('an object without data', 'POST', '', '{}', 400, 'data in body is required'),
  raw('data that is a string', 'POST', '', '{"data": "x"}', 400, 'data in body must be of type object'),
  raw('data that is null', 'POST', '', '{"data": null}', 400, 'data in body must be of type object'),
  raw(
    'content type text/plain',
    'POST',
    '',
    '{"data": {}}',
    415,
    'Content-Type must be application/json',
    'text/plain',
  ),
  raw(
    'no content type',
    'POST',
    '',
    '{"data": {}}',
    415,
    'Content-Type must be application/json or application/vnd.api+json, got none',
    null,
  ),
  raw('content type application/xml', 'POST', '', '<data/>', 415, 'got application/xml', 'application/xml'),
  raw(
    'a form body',
    'POST',
    '',
    'data=1',
    415,
    'got application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded',
  ),
  raw(
    'a body over 1 MiB',
    'POST',
    '',
    `{"pad": "${long(1024 * 1024)}"}`,
    413,
    'request body is larger than 1048576 bytes',
  ),
  // data
  createData('no id', { id: OMIT }, 'id in body is required'),
  createData('an id that is not a uuid', { id: 'not-a-uuid' }, 'id in body must be of type uuid'),
  createData('a numeric id', { id: 42 }, 'id in body must be of type string'),
  createData(
    'a uuid with a bad group',
    { id: 'ad27e265-9605-4b4b-a0e5-3003ea9cc4dz' },
    'id in body must be of type uuid',
  ),
  createData('no organisation_id', { organisation_id: OMIT }, 'organisation_id in body is required'),
  createData(
    'an organisation_id that is not a uuid',
    { organisation_id: 'northwind' },
    'organisation_id in body must be of type uuid',
  ),
  createData('no type', { type: OMIT }, 'type in body is required'),
  createData('another type', { type: 'payments' }, 'type in body should be equal to "accounts"'),
  createData('version 1 on create', { version: 1 }, 'version in body should be equal to 0'),
  createData('no attributes', { attributes: OMIT }, 'attributes in body is required'),
  createData('attributes that are a string', { attributes: 'GB' }, 'attributes in body must be of type object'),
  createData('attributes that are an array', { attributes: [] }, 'attributes in body must be of type object'),
  createData('attributes that are null', { attributes: null }, 'attributes in body must be of type object'),
  // required attributes
  create('no country', { country: OMIT }, 'country in body is required'),
  create('no name', { name: OMIT }, 'name in body is required'),
  // country
  create('a lower-case country', { country: 'gb' }, "country in body should match '^[A-Z]{2}$'"),
  create('a three-letter country', { country: 'GBR' }, "country in body should match '^[A-Z]{2}$'"),
  create('a numeric country', { country: 44 }, 'country in body must be of type string'),
  // name
  create('five names', { name: ['a', 'b', 'c', 'd', 'e'] }, 'name in body should have at most 4 items'),
  create('no names', { name: [] }, 'name in body should have at least 1 items'),
  create('a name that is a string', { name: 'Samantha Holder' }, 'name in body must be of type array'),
  create('a name of 141 chars', { name: [long(141, 'n')] }, 'name.0 in body should be at most 140 chars long'),
  create('an empty name entry', { name: ['Sam', ''] }, 'name.1 in body should be at least 1 chars long'),
  create('a numeric name entry', { name: [7] }, 'name.0 in body must be of type string'),
  // alternative_names
  create(
    'four alternative names',
    { alternative_names: ['a', 'b', 'c', 'd'] },
    'alternative_names in body should have at most 3 items',
  ),
  create(
    'an alternative name of 41 chars',
    { alternative_names: [long(41, 'n')] },
    'alternative_names.0 in body should be at most 40 chars long',
  ),
  create(
    'alternative names as a string',
    { alternative_names: 'Sam' },
    'alternative_names in body must be of type array',
  ),
  create(
    'a null alternative name',
    { alternative_names: [null] },
    'alternative_names.0 in body must be of type string',
  ),
  // account_classification
  create(
    'classification Corporate',
    { account_classification: 'Corporate' },
    'account_classification in body should match',
  ),
  create(
    'a numeric classification',
    { account_classification: 1 },
    'account_classification in body must be of type string',
  ),
  create('an empty classification', { account_classification: '' }, 'account_classification in body should match'),
  // booleans
  create('joint_account as a string', { joint_account: 'true' }, 'joint_account in body must be of type boolean'),
  create('joint_account null', { joint_account: null }, 'joint_account in body must be of type boolean'),
  create(
    'account_matching_opt_out as 1',
    { account_matching_opt_out: 1 },
    'account_matching_opt_out in body must be of type boolean',
  ),
  create('switched as yes', { switched: 'yes' }, 'switched in body must be of type boolean'),
  // name_matching_status
  create(
    'name_matching_status matched',
    { name_matching_status: 'matched' },
    'name_matching_status in body should be one of [supported switched opted_out not_supported]',
  ),
  create(
    'name_matching_status capitalised',
    { name_matching_status: 'Supported' },
    'name_matching_status in body should be one of',
  ),
  // secondary_identification
  create(
    'an empty secondary identification',
    { secondary_identification: '' },
    'secondary_identification in body should be at least 1 chars long',
  ),
  create(
    'a secondary identification of 141 chars',
    { secondary_identification: long(141) },
    'secondary_identification in body should be at most 140 chars long',
  ),
  create(
    'a numeric secondary identification',
    { secondary_identification: 12 },
    'secondary_identification in body must be of type string',
  ),
  // unknown attributes are refused, not stored
  create('an unknown attribute', { colour: 'red' }, 'colour in body is not allowed'),
  create('a misspelt attribute', { acount_number: '41426819' }, 'acount_number in body is not allowed'),
  raw(
    'an attribute named __proto__',
    'POST',
    '',
    '{"data": {"id": "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f", "organisation_id": "{organisation}", "type": "accounts", "attributes": {"country": "GB", "name": ["Sam"], "__proto__": {"admin": true}}}}',
    400,
    '__proto__ in body is not allowed',
  ),
  // patterns (outside GB, where the general patterns apply)
  create('a lower-case bank_id', { country: 'FR', bank_id: 'abc' }, "bank_id in body should match '^[A-Z0-9]{0,16}$'"),
  create(
    'a bank_id of 17 chars',
    { country: 'FR', bank_id: long(17) },
    "bank_id in body should match '^[A-Z0-9]{0,16}$'",
  ),
  create(
    'a lower-case bank_id_code',
    { country: 'FR', bank_id_code: 'frbdf' },
    "bank_id_code in body should match '^[A-Z]{0,16}$'",
  ),
  create(
    'a bank_id_code with digits',
    { country: 'FR', bank_id_code: 'FR1' },
    "bank_id_code in body should match '^[A-Z]{0,16}$'",
  ),
  create('a bic of 7 chars', { bic: 'NWBKGB2' }, 'bic in body should match'),
  create('a lower-case bic', { bic: 'nwbkgb22' }, 'bic in body should match'),
  create('a lower-case iban', { iban: 'gb29nwbk60161331926819' }, 'iban in body should match'),
  create('an iban without check digits', { iban: 'GBXXNWBK60161331926819' }, 'iban in body should match'),
  create('a base_currency of 4 letters', { base_currency: 'GBPX' }, "base_currency in body should match '^[A-Z]{3}$'"),
  create('a lower-case base_currency', { base_currency: 'gbp' }, "base_currency in body should match '^[A-Z]{3}$'"),
  create(
    'an account_number with a dash',
    { country: 'FR', account_number: '1234-5678' },
    "account_number in body should match '^[A-Z0-9]{0,64}$'",
  ),
  create(
    'an account_number of 65 chars',
    { country: 'FR', account_number: long(65, '1') },
    "account_number in body should match '^[A-Z0-9]{0,64}$'",
  ),
  create('a customer_id with #', { customer_id: 'cust#1' }, 'customer_id in body should match'),
  create('a customer_id of 257 chars', { customer_id: long(257, 'c') }, 'customer_id in body should match'),
  // GB rules
  create('a GB bank_id of 5 digits', { bank_id: '40030' }, "bank_id in body should match '^[0-9]{6}$'"),
  create('a GB bank_id with a letter', { bank_id: '40030A' }, "bank_id in body should match '^[0-9]{6}$'"),
  create(
    'a GB bank_id_code other than GBDSC',
    { bank_id_code: 'DEBLZ' },
    'bank_id_code in body should be equal to "GBDSC"',
  ),
  create(
    'a GB account_number of 7 digits',
    { account_number: '1234567' },
    "account_number in body should match '^[0-9]{8}$'",
  ),
  create(
    'a GB account_number with a letter',
    { account_number: '1234567A' },
    "account_number in body should match '^[0-9]{8}$'",
  ),
  // ids, versions, paging and filters
  raw('GET of a malformed id', 'GET', '/not-a-uuid', undefined, 400, 'id is not a valid uuid'),
  raw('GET of an id with an extra char', 'GET', '/{existing}0', undefined, 400, 'id is not a valid uuid'),
  raw(
    'PATCH of a malformed id',
    'PATCH',
    '/123',
    '{"data": {"version": 0, "attributes": {}}}',
    400,
    'id is not a valid uuid',
  ),
  raw('DELETE of a malformed id', 'DELETE', '/123?version=0', undefined, 400, 'id is not a valid uuid'),
  raw('DELETE without a version', 'DELETE', '/{existing}', undefined, 400, 'version in query is required'),
  raw(
    'DELETE with version abc',
    'DELETE',
    '/{existing}?version=abc',
    undefined,
    400,
    'version in query must be a non-negative integer',
  ),
  raw(
    'DELETE with version -1',
    'DELETE',
    '/{existing}?version=-1',
    undefined,
    400,
    'version in query must be a non-negative integer',
  ),
  raw(
    'DELETE with a version past 2^53',
    'DELETE',
    '/{existing}?version=99999999999999999999',
    undefined,
    400,
    'version in query must be a non-negative integer',
  ),
  raw(
    'DELETE with version 1.5',
    'DELETE',
    '/{existing}?version=1.5',
    undefined,
    400,
    'version in query must be a non-negative integer',
  ),
  patch('PATCH without a version', { version: OMIT }, 'version in body is required'),
  patch('PATCH with a string version', { version: '0' }, 'version in body must be of type integer'),
  patch('PATCH with a negative version', { version: -1 }, 'version in body should be greater than or equal to 0'),
  patch('PATCH without attributes', { attributes: OMIT }, 'attributes in body is required'),
  patch('PATCH with a bad country', { attributes: { country: 'England' } }, 'country in body should match'),
  patch(
    'PATCH with five names',
    { attributes: { name: ['a', 'b', 'c', 'd', 'e'] } },
    'name in body should have at most 4 items',
  ),
  patch(
    'PATCH with a GB account_number of 9 digits',
    { attributes: { account_number: '123456789' } },
    'account_number in body should match',
  ),
  patch(
    'PATCH with a bad bank_id_code for GB',
    { attributes: { bank_id_code: 'FRBDF' } },
    'bank_id_code in body should be equal to "GBDSC"',
  ),
  patch('PATCH with an unknown attribute', { attributes: { nickname: 'Sam' } }, 'nickname in body is not allowed'),
  raw(
    'PATCH with an attribute named __proto__',
    'PATCH',
    '/{existing}',
    '{"data": {"version": 0, "attributes": {"__proto__": {"admin": true}}}}',
    400,
    '__proto__ in body is not allowed',
  ),
  patch(
    'PATCH with an id other than the path',
    { id: 'ad27e265-9605-4b4b-a0e5-3003ea9cc4dc' },
    'id in body must equal the id in the path',
  ),
  raw('PATCH with malformed JSON', 'PATCH', '/{existing}', '{"data": ', 400, 'request body is not valid JSON'),
  raw(
    'PATCH with text/plain',
    'PATCH',
    '/{existing}',
    '{"data": {"version": 0, "attributes": {}}}',
    415,
    'Content-Type must be application/json',
    'text/plain',
  ),
  raw(
    'page[size] 0',
    'GET',
    '?page[size]=0',
    undefined,
    400,
    'page[size] in query should be greater than or equal to 1',
  ),
  raw(
    'page[size] 1001',
    'GET',
    '?page[size]=1001',
    undefined,
    400,
    'page[size] in query should be less than or equal to 1000',
  ),
  raw('page[size] abc', 'GET', '?page[size]=abc', undefined, 400, 'page[size] in query must be an integer'),
  raw(
    'page[number] -1',
    'GET',
    '?page[number]=-1',
    undefined,
    400,
    'page[number] in query must be a non-negative integer',
  ),
  raw(
    'page[number] of 400 digits',
    'GET',
    `?page[number]=${long(400, '9')}`,
    undefined,
    400,
    'page[number] in query should be less than or equal to',
  ),
  raw(
    'page[number] past 2^53',
    'GET',
    '?page[number]=9007199254740993',
    undefined,
    400,
    'page[number] in query should be less than or equal to',
  ),
  raw(
    'page[size] of 400 digits',
    'GET',
    `?page[size]=${long(400, '9')}`,
    undefined,
    400,
    'page[size] in query should be less than or equal to 1000',
  ),
  raw(
    'page[number] middle',
    'GET',
    '?page[number]=middle',
    undefined,
    400,
    'page[number] in query must be a non-negative integer',
  ),
  raw('an unknown filter', 'GET', '?filter[name]=Sam', undefined, 400, 'filter[name] is not a supported filter'),
  raw('PUT on the list', 'PUT', '', '{}', 405, 'method PUT is not allowed on /v1/organisation/accounts'),
  raw('PUT on a record', 'PUT', '/{existing}', '{}', 405, 'method PUT is not allowed'),
];
