// The catalogue of malformed account requests: each must get a 4xx whose error_message names the
// field (or the part of the request) at fault — never a 500. Used by the vitest table test; the
// Scenario Outlines of features/validation.feature carry the same rows.
import { MALFORMED_ATTRIBUTES } from './malformed-account-attributes.ts';
import { MALFORMED_ENVELOPES } from './malformed-account-envelope.ts';
import { bodyOf, type MalformedRequest } from './malformed-request-builders.ts';
import { NORTHWIND, type TestRuntime } from './test-runtime.ts';

export { bodyOf, type MalformedRequest, OMIT, validAttributes } from './malformed-request-builders.ts';

export const MALFORMED_ACCOUNT_REQUESTS: MalformedRequest[] = [...MALFORMED_ENVELOPES, ...MALFORMED_ATTRIBUTES];

/** Sends a row to /v1/organisation/accounts as a Northwind client; `existing` fills `{existing}`. */
export async function sendRow(rt: TestRuntime, row: MalformedRequest, existing: string, id = crypto.randomUUID()) {
  const body = bodyOf(row, { id, organisation_id: NORTHWIND.organisation_id });
  const headers: Record<string, string> = {};
  if (row.contentType !== null) {
    if (row.contentType !== undefined) headers['content-type'] = row.contentType;
    else if (body !== undefined) headers['content-type'] = 'application/json';
  }
  const path = `/v1/organisation/accounts${row.path.replaceAll('{existing}', existing)}`;
  return rt.app.request(path, {
    method: row.method,
    headers: { authorization: `Bearer ${await rt.token()}`, ...headers },
    // Bytes carry no Content-Type of their own; a string would be sent as text/plain.
    ...(body !== undefined ? { body: row.contentType === null ? new TextEncoder().encode(body) : body } : {}),
  });
}
