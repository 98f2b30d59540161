// How a malformed account request is described and built; the rows are in
// malformed-account-envelope.ts and malformed-account-attributes.ts.

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
    bic: 'NWBKGB22',
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
  if (row.raw !== undefined)
    return row.raw.replaceAll('{organisation}', ids.organisation_id).replaceAll('{id}', ids.id);
  if (row.method === 'GET' || row.method === 'DELETE') return undefined;
  if (row.method === 'PATCH') {
    const data = merge({ version: 0, attributes: merge({}, row.attributes) }, row.data);
    return JSON.stringify({ data });
  }
  const attributes = merge(validAttributes(), row.attributes);
  const data = merge({ id: ids.id, organisation_id: ids.organisation_id, type: 'accounts', attributes }, row.data);
  return JSON.stringify({ data });
}

export const long = (n: number, c = 'A') => c.repeat(n);
export const create = (
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
export const createData = (label: string, data: Record<string, unknown>, message: string): MalformedRequest => ({
  label,
  method: 'POST',
  path: '',
  data,
  status: 400,
  message,
});
export const raw = (
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
export const patch = (
  label: string,
  data: Record<string, unknown>,
  message: string,
  status = 400,
): MalformedRequest => ({
  label,
  method: 'PATCH',
  path: '/{existing}',
  data,
  status,
  message,
});
