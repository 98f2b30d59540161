// Requests of Form3's name verification API for route tests and the corpus test.
import { randomUUID } from 'node:crypto';
import type { NORTHWIND, TestRuntime } from '../../src/harness/test-runtime.ts';

export const NAME_VERIFICATIONS = '/v1/organisation/nameverifications';

/** A NameVerificationCreation body as go-form3 sends one (no type; attributes over a default). */
export function nameVerificationBody(
  organisation_id: string,
  attributes: Record<string, unknown> = {},
  id: string = randomUUID(),
) {
  return {
    data: {
      id,
      organisation_id,
      attributes: {
        account_number: '12345678',
        account_number_code: 'BBAN',
        bank_id: '309634',
        bank_id_code: 'GBDSC',
        name: ['Samantha Holder'],
        ...attributes,
      },
    },
  };
}

/** Registers a GB account in the client's organisation (201 or the test fails). */
export async function registerPayee(
  rt: TestRuntime,
  client: typeof NORTHWIND,
  attributes: Record<string, unknown>,
): Promise<void> {
  const res = await rt.call(
    'POST',
    '/v1/organisation/accounts',
    {
      data: {
        id: randomUUID(),
        organisation_id: client.organisation_id,
        attributes: { country: 'GB', bic: client.bank.bic, bank_id: client.bank.bank_id, ...attributes },
      },
    },
    { client },
  );
  if (res.status !== 201) throw new Error(`registering a payee: ${res.status} ${await res.text()}`);
}
