import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ClaimsHarness, claimsHarness, HARNESS_ORG } from '../../../test/support/claims-harness.ts';
import { relatedId } from '../resource.ts';

const statusOf = (h: ClaimsHarness, id: string) => h.claims.submissions.find(id)!;
const play = (h: ClaimsHarness, name: string, target_id: string, parameters?: Record<string, unknown>) =>
  h.scenarios.trigger({
    id: randomUUID(),
    organisation_id: HARNESS_ORG,
    name,
    target_id,
    ...(parameters ? { parameters } : {}),
  });
const contras = (h: ClaimsHarness) => [...h.payments.payments.rows.values()];
const settledBy = (h: ClaimsHarness, claimId: string) => relatedId(h.claims.claims.find(claimId)!, 'payment');

describe('claim scenarios, played on the scheme clock', () => {
  it('validation_failed: the submission fails at its validation step, names the scenario, and goes no further', async () => {
    const h = await claimsHarness();
    const { submission } = h.file();
    const scenario = play(h, 'claim_submission.validation_failed', submission.id, { reason: 'originator not found' });
    expect(scenario.attributes.status).toBe('pending');
    h.advance({ working_days: 15 });
    const s = statusOf(h, submission.id);
    expect(s.attributes).toMatchObject({ status: 'validation_failed', status_reason: 'originator not found' });
    expect(s.relationships?.scenarios?.data).toEqual([{ id: scenario.id, type: 'scenarios' }]);
    expect(h.scenarios.get(scenario.id, HARNESS_ORG).attributes).toMatchObject({ status: 'applied' });
    expect(h.reports).toEqual([]);
    expect(contras(h)).toEqual([]);
    const updates = h.events.filter((e) => e.record_type === 'claim_submissions' && e.event_type === 'updated');
    expect(updates.map((e) => (e.record.attributes as { status: string }).status)).toEqual(['validation_failed']);
  });

  it('validation_failed is refused once validation ran (400), and for an unknown submission (404)', async () => {
    const h = await claimsHarness();
    const { submission } = h.file();
    h.advance({ hours: 1 });
    expect(() => play(h, 'claim_submission.validation_failed', submission.id)).toThrow(
      /it is validation_passed, past validation/,
    );
    expect(() => play(h, 'claim_submission.validation_failed', randomUUID())).toThrow(/does not exist/);
  });

  it('delivery_failed: processed (sequence number, report), then delivery_failed at D0+2 and never settled', async () => {
    const h = await claimsHarness();
    const { claim, submission } = h.file();
    play(h, 'claim_submission.delivery_failed', submission.id);
    h.advance({ working_days: 1 });
    expect(statusOf(h, submission.id).attributes.status).toBe('queued_for_delivery');
    h.advance({ working_days: 1 });
    expect(statusOf(h, submission.id).attributes).toMatchObject({
      status: 'delivery_failed',
      status_reason: 'the originator did not receive the claim',
      sequence_number: '000000000001',
    });
    h.advance({ working_days: 13 });
    expect(settledBy(h, claim.id)).toBeUndefined();
  });

  it('contra_delayed: the claim leaves its day contra and is settled N working days later by its own', async () => {
    const h = await claimsHarness();
    const onTime = h.file(['1.00']);
    const late = h.file(['2.00']);
    const scenario = play(h, 'claim.contra_delayed', late.submission.id, { working_days: 2 });
    h.advance({ working_days: 14 }); // 2027-01-13
    expect(contras(h).map((p) => p.attributes.amount)).toEqual(['1.00']);
    expect(settledBy(h, onTime.claim.id)).toBeDefined();
    expect(settledBy(h, late.claim.id)).toBeUndefined();
    expect(statusOf(h, late.submission.id).attributes.settlement_date).toBe('2027-01-15');
    expect(h.scenarios.get(scenario.id, HARNESS_ORG).attributes.effect).toContain('from 2027-01-13 to 2027-01-15');
    h.advance({ working_days: 1 });
    expect(contras(h)).toHaveLength(1);
    h.advance({ working_days: 1 });
    expect(contras(h).map((p) => [p.attributes.amount, p.attributes.processing_date])).toEqual([
      ['1.00', '2027-01-13'],
      ['2.00', '2027-01-15'],
    ]);
    expect(settledBy(h, late.claim.id)).toBe(contras(h)[1]!.id);
  });

  it('contra_withheld: never settled; refused for a reversed or settled claim and a bad working_days', async () => {
    const h = await claimsHarness();
    const { claim, submission } = h.file();
    expect(() => play(h, 'claim.contra_delayed', submission.id, { working_days: 0 })).toThrow(/working_days/);
    play(h, 'claim.contra_withheld', submission.id);
    h.advance({ working_days: 30 });
    expect(settledBy(h, claim.id)).toBeUndefined();
    expect(statusOf(h, submission.id).relationships?.scenarios?.data).toHaveLength(1);
    const other = h.file();
    h.advance({ working_days: 14 });
    expect(() => play(h, 'claim.contra_withheld', other.submission.id)).toThrow(/already settled/);
  });

  it('magic amounts play the scenario without the API, recorded as magic_value', async () => {
    const h = await claimsHarness();
    const failing = h.file(['900.01']);
    const undelivered = h.file(['900.02']);
    const late = h.file(['450.00', '450.03'], { number_of_claims: 2 });
    const withheld = h.file(['900.04']);
    const normal = h.file(['900.05']);
    h.advance({ working_days: 15 });
    expect(statusOf(h, failing.submission.id).attributes.status).toBe('validation_failed');
    expect(statusOf(h, undelivered.submission.id).attributes.status).toBe('delivery_failed');
    expect(statusOf(h, late.submission.id).attributes.settlement_date).toBe('2027-01-14');
    expect(settledBy(h, late.claim.id)).toBeDefined();
    expect(settledBy(h, withheld.claim.id)).toBeUndefined();
    expect(settledBy(h, normal.claim.id)).toBeDefined();
    const played = h.scenarios.list(HARNESS_ORG);
    expect(played.map((s) => [s.attributes.name, s.attributes.source, s.attributes.status])).toEqual([
      ['claim_submission.validation_failed', 'magic_value', 'applied'],
      ['claim_submission.delivery_failed', 'magic_value', 'applied'],
      ['claim.contra_delayed', 'magic_value', 'applied'],
      ['claim.contra_withheld', 'magic_value', 'applied'],
    ]);
  });
});
