// Many route and domain tests need a valid claim to start from: its request body, and the API calls
// that create and submit one.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { NORTHWIND, type TestRuntime } from '../../src/harness/test-runtime.ts';

/** The attributes of a valid reason-2 claim as a client sends them, with `over` replacing some. */
export function claimRequestAttributes(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    payment_scheme: 'bacs',
    clearing_id: '123456',
    reference: 'DDIC0001AB',
    reason_code: '2',
    beneficiary_party: { account_number: '41426819', bank_id: '400300' },
    debtor_party: { account_name: 'Acme Utilities', account_number: '87654321', bank_id: '203040' },
    original_instruction: { clearing_id: '654321', reference: 'ACME-000123' },
    number_of_claims: 1,
    disputed_transactions: [{ amount: '49.99', date: '2026-12-01' }],
    ...over,
  };
}

/** A claim create body. */
export function claimRequest(organisation_id: string, over: Record<string, unknown> = {}, id: string = randomUUID()) {
  return { data: { id, organisation_id, type: 'claims', version: 0, attributes: claimRequestAttributes(over) } };
}

/** The body of a claim's child without attributes (a submission, a reversal submission). */
export function childRequest(organisation_id: string, type = 'claim_submissions', id: string = randomUUID()) {
  return { data: { id, organisation_id, type } };
}

/** Creates a claim through the API (201 expected); answers its `data`. */
export async function createClaimVia(rt: TestRuntime, over: Record<string, unknown> = {}, client = NORTHWIND) {
  const res = await rt.call('POST', '/v1/transaction/claims', claimRequest(client.organisation_id, over), { client });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { data: { id: string; organisation_id: string } }).data;
}

/** Submits a claim through the API (201 expected); answers the submission's `data`. */
export async function submitVia(rt: TestRuntime, claimId: string, client = NORTHWIND) {
  const res = await rt.call(
    'POST',
    `/v1/transaction/claims/${claimId}/submissions`,
    childRequest(client.organisation_id),
    { client },
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { data: { id: string; attributes: Record<string, string> } }).data;
}
