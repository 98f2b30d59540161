// The catalogue of malformed account requests: each must get a 4xx whose error_message names the
// field (or the part of the request) at fault — never a 500. Used by the vitest table test; the
// Scenario Outlines of features/validation.feature carry the same rows.
import { MALFORMED_ATTRIBUTES } from './malformed-account-attributes.ts';
import { MALFORMED_ENVELOPES } from './malformed-account-envelope.ts';
import type { MalformedRequest } from './malformed-request-builders.ts';

export { bodyOf, type MalformedRequest, validAttributes } from './malformed-request-builders.ts';

export const MALFORMED_ACCOUNT_REQUESTS: MalformedRequest[] = [...MALFORMED_ENVELOPES, ...MALFORMED_ATTRIBUTES];
