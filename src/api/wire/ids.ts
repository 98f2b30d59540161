// The ids and versions a request carries in its path and query, checked the same way on every route.
import { ApiError } from './errors.ts';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

/** A path id: 400 `<name> is not a valid uuid` unless it is one. */
export function parseId(value: string | undefined, name = 'id'): string {
  if (!value || !isUuid(value)) throw new ApiError(400, `${name} is not a valid uuid`);
  return value.toLowerCase();
}

/**
 * The `version` query parameter of a DELETE. `refusal`: the one message of the wire for a version
 * missing or not a number (the fake account API's, wire-rules.ts); else each rule is named.
 */
export function parseVersionQuery(value: string | undefined, refusal?: string): number {
  if (value === undefined || value === '') throw new ApiError(400, refusal ?? 'version in query is required');
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new ApiError(400, refusal ?? 'version in query must be a non-negative integer');
  return Number(value);
}
