import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readFixtures } from '../../fixtures.ts';
import { assertMatchesSchema } from '../../harness/assert-schema.ts';
import { FENWICK, HARBOUR, NORTHWIND, TEST_START, type TestRuntime, testRuntime } from '../../harness/test-runtime.ts';

let rt: TestRuntime;
afterEach(() => rt.close());

const json = async (res: Response) => (await res.json()) as any;
const seeds = readFixtures().seedPayments();
const seedAccounts = readFixtures().seedAccounts();
const ownerOf = (party: { account_number: string; account_with: { bank_id: string } }) =>
  seedAccounts.find(
    (a) => a.attributes.account_number === party.account_number && a.attributes.bank_id === party.account_with.bank_id,
  );

describe('the seed payments of fixtures/payments.json', () => {
  it("give every organisation admitted inbound credits, processed before the clock's start", async () => {
    rt = await testRuntime({ seedAccounts: true });
    for (const client of [NORTHWIND, HARBOUR, FENWICK]) {
      const list = await json(await rt.call('GET', '/v1/transaction/payments', undefined, { client }));
      assertMatchesSchema('payment-list', list);
      expect(list.data.map((p: any) => p.id)).toEqual(
        expect.arrayContaining(seeds.filter((s) => s.organisation_id === client.organisation_id).map((s) => s.id)),
      );
      expect(list.data.length).toBeGreaterThan(0);
      let previous = '';
      for (const p of list.data) {
        expect(p.attributes).toMatchObject({ payment_scheme: 'Bacs', scheme_payment_type: 'Credit', currency: 'GBP' });
        expect(p.attributes.scheme_payment_sub_type).toBeUndefined(); // not a contra
        expect(p.attributes.processing_date < TEST_START.slice(0, 10)).toBe(true);
        expect(p.created_on >= previous).toBe(true); // listed in the order they came to be
        previous = p.created_on;
        // Credited to one of the organisation's seed accounts, from another organisation's.
        expect(ownerOf(p.attributes.beneficiary_party)?.organisation_id).toBe(client.organisation_id);
        const debtor = ownerOf(p.attributes.debtor_party);
        expect(debtor?.organisation_id).toBeDefined();
        expect(debtor?.organisation_id).not.toBe(client.organisation_id);
        const names = ownerOf(p.attributes.beneficiary_party)?.attributes.name as string[];
        expect(p.attributes.beneficiary_party.account_name).toBe(names.join(' '));

        const [admissionRef] = p.relationships.payment_admission.data;
        const admission = await json(
          await rt.call('GET', `/v1/transaction/payments/${p.id}/admissions/${admissionRef.id}`, undefined, { client }),
        );
        assertMatchesSchema('payment-admission-single', admission);
        expect(admission.data.attributes).toMatchObject({ status: 'confirmed', status_reason: 'accepted' });
        expect(admission.data.attributes.admission_datetime).toBe(p.created_on);
        expect(admission.data.attributes.admission_datetime.slice(0, 10)).toBe(p.attributes.processing_date);
      }
    }
  });

  it('come back with a reset, and stay out of a runtime started without seeds', async () => {
    rt = await testRuntime({ seedAccounts: true });
    const ids = async () => (await json(await rt.call('GET', '/v1/transaction/payments'))).data.map((p: any) => p.id);
    const before = await ids();
    expect((await rt.call('POST', '/v1/simulator/reset')).status).toBe(200);
    expect(await ids()).toEqual(before);
    expect((await rt.call('POST', '/v1/simulator/reset', { scope: 'all' })).status).toBe(200);
    expect(await ids()).toEqual(before);
    await rt.close();
    rt = await testRuntime();
    expect(await ids()).toEqual([]);
  });

  it("are the ones docs/claims.md's table names", () => {
    const page = readFileSync(new URL('../../../docs/claims.md', import.meta.url), 'utf8');
    const rows = page.split('\n').filter((l) => /^\| (Northwind|Harbour|Fenwick) \|/.test(l));
    expect(rows).toHaveLength(seeds.length);
    for (const seed of seeds) {
      const a = seed.attributes;
      const row = ` ${a.beneficiary_party.account_name} ${a.beneficiary_party.account_with.bank_id} ${a.beneficiary_party.account_number} | ${a.debtor_party.account_name} (`;
      const tail = `| ${a.amount} | ${a.reference} | ${seed.processed_working_days_ago} |`;
      expect(
        rows.some((r) => r.includes(row) && r.endsWith(tail)),
        `${a.reference} in docs/claims.md`,
      ).toBe(true);
    }
  });
});
