// Account requests carrying keys Form3's account model does not declare. Form3 (a go-swagger
// server) ignores such keys; the simulator does too, and refuses them only when it runs --strict.
// `status`/`message` are the --strict answer; without it a create answers 201 and a PATCH 200,
// and the key is not stored.
import { create, type MalformedRequest, patch, raw } from '../../src/harness/malformed-request-builders.ts';

export const UNDECLARED_ACCOUNT_KEYS: MalformedRequest[] = [
  create('an unknown attribute', { colour: 'red' }, 'colour in body is not allowed'),
  create('a misspelt attribute', { acount_number: '41426819' }, 'acount_number in body is not allowed'),
  raw(
    'an attribute named __proto__',
    'POST',
    '',
    '{"data": {"id": "{id}", "organisation_id": "{organisation}", "type": "accounts", "attributes": {"country": "GB", "bank_id": "400300", "bank_id_code": "GBDSC", "bic": "NWBKGB22", "name": ["Sam"], "__proto__": {"admin": true}}}}',
    400,
    '__proto__ in body is not allowed',
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
];

/** The undeclared key a row sends. */
export function undeclaredKeyOf(row: MalformedRequest): string {
  return row.message.split(' ')[0]!;
}
