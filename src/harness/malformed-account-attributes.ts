// Malformed account requests about the attributes: required ones, each field's rules, GB's rules.
import { create, long, type MalformedRequest, OMIT } from './malformed-request-builders.ts';

export const MALFORMED_ATTRIBUTES: MalformedRequest[] = [
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
  // An empty one is not given (go-swagger skips a zero value): accepted, empty-strings.ts.
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
];
