// Test-only: a sandbox made through the API and a client that calls it with its own credentials,
// over any fetch (an app's in-process `request`, or the network to a listening server).
import { randomUUID } from 'node:crypto';

export type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

export interface SandboxClient {
  id: string;
  /** The create answer's data. */
  data: any;
  admin: { client_id: string; client_secret: string; organisation_id: string; key_ids: string[] };
  token: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** Creates a sandbox (as `creator`'s bearer token, or none) and takes a token for its admin client. */
export async function newSandbox(fetch: Fetch, attributes: Record<string, unknown> = {}, creator?: string) {
  const res = await fetch('/v1/simulator/sandboxes', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(creator ? { authorization: `Bearer ${creator}` } : {}) },
    body: JSON.stringify({ data: { type: 'sandboxes', attributes } }),
  });
  if (res.status !== 201) throw new Error(`sandbox create answered ${res.status}: ${await res.text()}`);
  const data = ((await res.json()) as { data: any }).data;
  return sandboxClient(fetch, data);
}

/** A client of a sandbox whose create answer is `data`. */
export async function sandboxClient(fetch: Fetch, data: any, which = 0): Promise<SandboxClient> {
  const admin = data.attributes.clients[which];
  const basic = Buffer.from(`${admin.client_id}:${admin.client_secret}`).toString('base64');
  const tokenRes = await fetch('/v1/oauth2/token', { method: 'POST', headers: { authorization: `Basic ${basic}` } });
  if (tokenRes.status !== 200) throw new Error(`token answered ${tokenRes.status}: ${await tokenRes.text()}`);
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  return {
    id: data.id,
    data,
    admin,
    token,
    call: (method, path, body, headers = {}) =>
      fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
  };
}

/** An account create body for the fixtures' Northwind organisation, with a name of its own. */
export function accountBody(organisationId: string, name: string, accountNumber: string) {
  return {
    data: {
      id: randomUUID(),
      organisation_id: organisationId,
      type: 'accounts',
      attributes: {
        country: 'GB',
        bank_id: '400300',
        bank_id_code: 'GBDSC',
        bic: 'NWBKGB22',
        account_number: accountNumber,
        name: [name],
      },
    },
  };
}
