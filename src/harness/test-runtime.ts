// The simulator in process as the harness's inprocess target and the unit tests drive it: a memory
// runtime on a frozen scheme clock, the fixture clients and their bearer tokens.

import { ManualClock } from '../clock/clock.ts';
import type { ClockState } from '../clock/scheme-clock.ts';
import { SchemeClock } from '../clock/scheme-clock.ts';
import { createRuntime, type Runtime, type RuntimeOptions } from '../runtime.ts';
import { clientsFileWithTestKeys, PARTICIPANT_TEST_KEYS } from './cop-keys.ts';

/** The fixed instant tests start at: a Monday, 09:00 London (winter, so UTC). */
export const TEST_START = '2026-12-21T09:00:00.000Z';

/** The fixture clients, by the alias tests authenticate with; `uuid` is the client id tokens carry. */
export const NORTHWIND = {
  organisation_id: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb',
  uuid: '5a1e6c3b-7d2f-4e8a-9b40-6c1d2e3f4a5b',
  client_id: 'northwind-dev',
  client_secret: 'northwind-dev-secret',
  /** A sort code and the BIC registered to it (fixtures/organisations.json). */
  bank: { bank_id: '400300', bic: 'NWBKGB22' },
};
export const HARBOUR = {
  organisation_id: '5b5a6b4d-0f1e-4f4e-9a57-3f1a8d8a2b11',
  uuid: '8c2f1d4e-3b5a-4c6d-8e7f-9a0b1c2d3e4f',
  client_id: 'harbour-dev',
  client_secret: 'harbour-dev-secret',
  bank: { bank_id: '309634', bic: 'HRBRGB2L' },
};

export const FENWICK = {
  organisation_id: 'c0a9e1f2-6d3b-4a8e-b7c4-2f9e8d1a6b53',
  uuid: 'b3d4e5f6-1a2b-4c3d-9e8f-7a6b5c4d3e2f',
  client_id: 'fenwick-dev',
  client_secret: 'fenwick-dev-secret',
  bank: { bank_id: '040075', bic: 'FNWKGB2L' },
};

export interface TestRuntime extends Runtime {
  wall: ManualClock;
  /** A bearer token for a client (default Northwind). */
  token(client?: { client_id: string; client_secret: string }): Promise<string>;
  /** app.request with a bearer token and JSON body. */
  call(
    method: string,
    path: string,
    body?: unknown,
    init?: { client?: typeof NORTHWIND; headers?: Record<string, string> },
  ): Promise<Response>;
}

/**
 * A memory runtime with the scheme clock frozen at TEST_START and a manual wall clock, the test
 * signing keys of the participants and the fixture clients with requester test keys registered.
 */
export async function testRuntime(options: RuntimeOptions & { clockState?: ClockState } = {}): Promise<TestRuntime> {
  const wall = new ManualClock('2026-12-21T09:00:00.000Z');
  const runtime = await createRuntime({
    memory: true,
    wall,
    clock: options.clockState ?? SchemeClock.frozenAt(TEST_START, wall),
    // Tests start from an empty registry; the seed accounts are for `npm start`.
    seedAccounts: false,
    scheduledReports: false,
    // Made once, not three RSA keys per runtime; the requesters' public keys of src/harness/cop-keys.ts.
    participantSigningKeys: PARTICIPANT_TEST_KEYS,
    clientsFile: clientsFileWithTestKeys(),
    ...options,
  });
  const tokens = new Map<string, string>();
  const token = async (client: { client_id: string; client_secret: string } = NORTHWIND) => {
    const cached = tokens.get(client.client_id);
    if (cached) return cached;
    const res = await runtime.app.request('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
    const t = ((await res.json()) as { access_token: string }).access_token;
    tokens.set(client.client_id, t);
    return t;
  };
  return Object.assign(runtime, {
    wall,
    token,
    async call(
      method: string,
      path: string,
      body?: unknown,
      init: { client?: typeof NORTHWIND; headers?: Record<string, string> } = {},
    ) {
      const headers: Record<string, string> = { authorization: `Bearer ${await token(init.client)}`, ...init.headers };
      if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
      return runtime.app.request(path, {
        method,
        headers,
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
    },
  });
}
