// Request helpers of the unit tests that drive the app in process (test-only; the runtime they
// drive is src/harness/test-runtime.ts).
import { NORTHWIND, type TestRuntime } from '../../src/harness/test-runtime.ts';

/** The name-verification path of the Northwind participant. */
export const NORTHWIND_COP_PATH = '/v1/participants/0015800001041REAAY/open-banking/v3.1/accounts/name-verification';

/** A name-verification request body: Samantha Holder at Northwind 400300 12345678, with `data` over it. */
export function copRequest(data: Record<string, unknown> = {}): { Data: Record<string, unknown> } {
  return {
    Data: {
      SchemeName: 'SortCodeAccountNumber',
      AccountType: 'Personal',
      Identification: '40030012345678',
      Name: 'Samantha Holder',
      ...data,
    },
  };
}

/** Opens a GB account for the client at its registered sort code and BIC (201 or the test fails); its id. */
export async function openAccount(rt: TestRuntime, client: typeof NORTHWIND = NORTHWIND): Promise<string> {
  const id = crypto.randomUUID();
  const res = await rt.call(
    'POST',
    '/v1/organisation/accounts',
    {
      data: {
        id,
        organisation_id: client.organisation_id,
        attributes: { country: 'GB', name: ['Ada Lovelace'], ...client.bank },
      },
    },
    { client },
  );
  if (res.status !== 201) throw new Error(`opening an account: ${res.status} ${await res.text()}`);
  return id;
}

/**
 * Subscribes the client to `created` events of accounts, delivered to each of `callbacks`
 * (`[transport, uri]` pairs, as callback_uris); 201 or the test fails. The subscription's id.
 */
export async function subscribeToAccounts(
  rt: TestRuntime,
  callbacks: Array<[transport: string, uri: string]>,
  client: typeof NORTHWIND = NORTHWIND,
): Promise<string> {
  const id = crypto.randomUUID();
  const res = await rt.call(
    'POST',
    '/v1/notification/subscriptions',
    {
      data: {
        id,
        organisation_id: client.organisation_id,
        attributes: {
          event_type: 'created',
          record_type: 'accounts',
          callback_uris: callbacks.map(([callback_transport, callback_uri]) => ({ callback_transport, callback_uri })),
        },
      },
    },
    { client },
  );
  if (res.status !== 201) throw new Error(`subscribing: ${res.status} ${await res.text()}`);
  return id;
}
