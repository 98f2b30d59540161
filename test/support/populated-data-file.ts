// Load checks, doctor and resets must be tested on a data file that holds every kind of record:
// one made through the API, for tests to copy and damage.
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HARBOUR, NORTHWIND, type TestRuntime, testRuntime } from '../../src/harness/test-runtime.ts';
import { claimRequestAttributes } from './claim-requests.ts';
import { storedData } from './stored-data.ts';

const ORG = NORTHWIND.organisation_id;

async function created(rt: TestRuntime, path: string, body: unknown, client = NORTHWIND): Promise<{ id: string }> {
  const res = await rt.call('POST', path, body, { client });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { id: string } }).data;
}

async function advance(rt: TestRuntime, working_days: number): Promise<void> {
  const res = await rt.call('POST', '/v1/simulator/clock/advance', { working_days });
  if (res.status !== 200) throw new Error(`advance: ${res.status} ${await res.text()}`);
}

/**
 * A data file (of the older one-document format) holding a record of every collection the simulator keeps: accounts of two
 * organisations, a subscription with a secret and a failed delivery, a claim with its submission,
 * reversal and reversal submission, the settlement contra (payment + admission), an injected
 * report with rows, scheduler jobs, and the meta the simulator writes. Load checks and `doctor`
 * are tested by corrupting copies of it.
 */
export async function populatedDataFile(dir: string): Promise<string> {
  const data = join(dir, 'data.json');
  const rt = await testRuntime({ memory: false, data, scheduledReports: true });
  try {
    // First, so the accounts' creation queues notifications; delivering them fails (nothing listens).
    await created(rt, '/v1/notification/subscriptions', {
      data: {
        id: randomUUID(),
        organisation_id: ORG,
        type: 'subscriptions',
        attributes: {
          event_type: 'created',
          record_type: 'accounts',
          callback_transport: 'http',
          callback_uri: 'http://127.0.0.1:9/hooks',
          secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
        },
      },
    });
    for (const [client, organisation_id] of [
      [NORTHWIND, ORG],
      [HARBOUR, HARBOUR.organisation_id],
    ] as const) {
      await created(
        rt,
        '/v1/organisation/accounts',
        {
          data: {
            id: randomUUID(),
            organisation_id,
            type: 'accounts',
            attributes: {
              country: 'GB',
              ...client.bank,
              bank_id_code: 'GBDSC',
              account_number: '41426819',
              name: ['Samantha Holder'],
              account_classification: 'Personal',
            },
          },
        },
        client,
      );
    }
    await rt.delivery.runDue();
    const claim = await created(rt, '/v1/transaction/claims', {
      data: {
        id: randomUUID(),
        organisation_id: ORG,
        type: 'claims',
        attributes: claimRequestAttributes({
          reference: 'DDIC0001AB',
          reason_code: '2',
          original_instruction: { clearing_id: '654321', reference: 'ACME-000123' },
          disputed_transactions: [{ amount: '49.99', date: '2026-12-01' }],
        }),
      },
    });
    const sub = (type: string) => ({ data: { id: randomUUID(), organisation_id: ORG, type } });
    await created(rt, `/v1/transaction/claims/${claim.id}/submissions`, sub('claim_submissions'));
    const second = await created(rt, '/v1/transaction/claims', {
      data: {
        id: randomUUID(),
        organisation_id: ORG,
        type: 'claims',
        attributes: claimRequestAttributes({
          reference: 'DDIC0002AB',
          reason_code: '1',
          original_instruction: { clearing_id: '654321', reference: 'ACME-000124' },
          disputed_transactions: [{ amount: '12.00', date: '2026-12-01' }],
        }),
      },
    });
    const secondSubmission = await created(
      rt,
      `/v1/transaction/claims/${second.id}/submissions`,
      sub('claim_submissions'),
    );
    await advance(rt, 1);
    const submitted = await rt.call('GET', `/v1/transaction/claims/${second.id}/submissions/${secondSubmission.id}`);
    const { sequence_number } = ((await submitted.json()) as { data: { attributes: { sequence_number: string } } }).data
      .attributes;
    const reversal = await created(rt, `/v1/transaction/claims/${second.id}/reversals`, {
      data: {
        id: randomUUID(),
        organisation_id: ORG,
        type: 'claim_reversals',
        attributes: { original_instruction_id: sequence_number },
      },
    });
    await created(
      rt,
      `/v1/transaction/claims/${second.id}/reversals/${reversal.id}/submissions`,
      sub('claim_reversal_submissions'),
    );
    await advance(rt, 15); // the first claim settles: a contra payment and its admission
    await created(rt, '/v1/simulator/reports', {
      report_type: 'BACS_ARUDD',
      rows: [{ Reference: 'A1', PayerName: 'A Payer', PayerSortCode: '123456' }],
    });
    await rt.sim.store.commit();
  } finally {
    await rt.close();
  }
  // One document, in the older format: the corruption tests edit it as JSON, and every open of it
  // goes through the load checks before its migration to the journal format.
  const stored = await storedData(data);
  rmSync(`${data}.journal`, { force: true });
  writeFileSync(data, JSON.stringify(stored));
  return data;
}
