import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { claimsHarness, HARNESS_ORG } from '../../../test/support/claims-harness.ts';

const OTHER_ORG = '5b5a6b4d-0f1e-4f4e-9a57-3f1a8d8a2b11';

describe('the contra', () => {
  it('three claims on one day give one contra with the exact summed amount', async () => {
    const h = await claimsHarness();
    const claims = [h.file(['0.10', '0.20']), h.file(['19.99']), h.file(['1000000.01'])];
    h.advance({ working_days: 14 });
    const payments = h.payments.list(HARNESS_ORG);
    expect(payments).toHaveLength(1);
    const p = payments[0]!;
    expect(p.attributes).toMatchObject({
      amount: '1000020.30',
      currency: 'GBP',
      payment_scheme: 'Bacs',
      scheme_payment_type: 'Credit',
      scheme_payment_sub_type: 'DDICSettlement',
      reference: 'DDIC SETTLEMENT 20261221',
      processing_date: '2027-01-13',
      scheme_processing_date: '2027-01-13',
      beneficiary_party: { account_number: '41426819', account_with: { bank_id: '400300', bank_id_code: 'GBDSC' } },
      debtor_party: { account_name: 'Acme Utilities', account_number: '87654321' },
    });
    expect(p.relationships?.claims?.data.map((c) => c.id)).toEqual(claims.map((c) => c.claim.id));
    const admission = h.payments.getAdmission(p.id, p.relationships!.payment_admission!.data[0]!.id, HARNESS_ORG);
    expect(admission.attributes).toEqual({
      status: 'confirmed',
      status_reason: 'accepted',
      scheme_status_code: '',
      scheme_status_code_description: '',
      admission_datetime: '2027-01-13T00:00:00.000Z',
    });
    const created = h.events.filter((e) => e.event_type === 'created').map((e) => e.record_type);
    expect(created.slice(-2)).toEqual(['payments', 'payment_admissions']);
  });

  it("a reversed claim is left out of its day's contra", async () => {
    const h = await claimsHarness();
    const keep1 = h.file(['10.00']);
    const reversed = h.file(['25.50']);
    const keep2 = h.file(['0.05']);
    h.advance({ working_days: 3 });
    const seq = h.claims.submissionOf(reversed.claim.id)!.attributes.sequence_number!;
    const rev = h.claims.reversals.create(
      reversed.claim.id,
      { id: randomUUID(), organisation_id: HARNESS_ORG, original_instruction_id: seq },
      HARNESS_ORG,
    );
    h.claims.reversals.submit(
      reversed.claim.id,
      rev.id,
      { id: randomUUID(), organisation_id: HARNESS_ORG },
      HARNESS_ORG,
    );
    h.advance({ working_days: 11 });
    const [p, ...rest] = h.payments.list(HARNESS_ORG);
    expect(rest).toHaveLength(0);
    expect(p!.attributes.amount).toBe('10.05');
    expect(p!.relationships?.claims?.data.map((c) => c.id)).toEqual([keep1.claim.id, keep2.claim.id]);
    expect(h.claims.submissionOf(reversed.claim.id)!.attributes.status).toBe('delivery_confirmed');
  });

  it('no contra when every claim of the day was reversed', async () => {
    const h = await claimsHarness();
    const { claim } = h.file(['10.00']);
    h.advance({ working_days: 1 });
    const seq = h.claims.submissionOf(claim.id)!.attributes.sequence_number!;
    const rev = h.claims.reversals.create(
      claim.id,
      { id: randomUUID(), organisation_id: HARNESS_ORG, original_instruction_id: seq },
      HARNESS_ORG,
    );
    h.claims.reversals.submit(claim.id, rev.id, { id: randomUUID(), organisation_id: HARNESS_ORG }, HARNESS_ORG);
    h.advance({ working_days: 20 });
    expect(h.payments.payments.rows.size).toBe(0);
  });

  it('claims on two days give two contras, on their own settlement days', async () => {
    const h = await claimsHarness();
    h.file(['1.00']);
    h.file(['2.00']);
    h.advance({ working_days: 1 }); // Tuesday 22 December
    h.file(['4.00']);
    h.advance({ working_days: 13 });
    expect(h.payments.list(HARNESS_ORG).map((p) => [p.attributes.processing_date, p.attributes.amount])).toEqual([
      ['2027-01-13', '3.00'],
    ]);
    h.advance({ working_days: 1 });
    expect(
      h.payments
        .list(HARNESS_ORG)
        .map((p) => [p.attributes.processing_date, p.attributes.amount, p.attributes.reference]),
    ).toEqual([
      ['2027-01-13', '3.00', 'DDIC SETTLEMENT 20261221'],
      ['2027-01-14', '4.00', 'DDIC SETTLEMENT 20261222'],
    ]);
  });

  it('one contra per organisation for the same day', async () => {
    const h = await claimsHarness();
    h.file(['1.00']);
    h.file(['7.00'], {}, OTHER_ORG);
    h.advance({ working_days: 14 });
    expect(h.payments.list(HARNESS_ORG).map((p) => p.attributes.amount)).toEqual(['1.00']);
    expect(h.payments.list(OTHER_ORG).map((p) => p.attributes.amount)).toEqual(['7.00']);
    expect(h.reports.map((r) => r.organisation_id).sort()).toEqual([HARNESS_ORG, OTHER_ORG].sort());
  });
});
