import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ClaimsHarness, claimsHarness, HARNESS_ORG } from '../../../test/support/claims-harness.ts';
import { DomainError } from '../errors.ts';

function reverse(h: ClaimsHarness, claimId: string, originalInstructionId?: string) {
  const sequence = originalInstructionId ?? h.claims.submissionOf(claimId)!.attributes.sequence_number!;
  const reversal = h.claims.reversals.create(
    claimId,
    { id: randomUUID(), organisation_id: HARNESS_ORG, original_instruction_id: sequence },
    HARNESS_ORG,
  );
  const submission = h.claims.reversals.submit(
    claimId,
    reversal.id,
    { id: randomUUID(), organisation_id: HARNESS_ORG },
    HARNESS_ORG,
  );
  return { reversal, submission };
}

function failure(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a domain error');
}

describe('reversal window (claim submitted Monday 2026-12-21: D0+11 = Friday 2027-01-08)', () => {
  it('is refused before processing, explaining when it opens', async () => {
    const h = await claimsHarness();
    const { claim } = h.file();
    const err = failure(() => reverse(h, claim.id, '000000000001'));
    expect(err.kind).toBe('invalid');
    expect(err.message).toContain('cannot be reversed yet');
    expect(err.message).toContain('processed on 2026-12-22');
    expect(err.message).toContain('until the end of 2027-01-08 (working day D0+11, London time)');
  });

  it('is allowed on working day 11 up to its last instant, 23:59:59.999 London (winter: GMT)', async () => {
    const h = await claimsHarness();
    const { claim } = h.file(['10.00']);
    h.advance({ working_days: 11 });
    expect(h.clock.now().toISOString()).toBe('2027-01-08T09:00:00.000Z');
    h.moveTo('2027-01-08T23:59:59.999Z');
    const { submission } = reverse(h, claim.id);
    // After the 22:00 cut-off the reversal submission itself counts for the next working day.
    expect(submission.attributes).toMatchObject({
      status: 'accepted',
      submission_date: '2027-01-11',
      processing_date: '2027-01-12',
    });
    expect(h.claims.get(claim.id, HARNESS_ORG).relationships?.claim_reversal?.data).toHaveLength(1);
    h.moveTo('2027-01-12T00:00:00.000Z');
    expect(h.claims.reversals.submissions.find(submission.id)!.attributes.status).toBe('delivery_confirmed');
    h.advance({ working_days: 5 });
    expect(h.claims.submissionOf(claim.id)!.attributes.status).toBe('delivery_confirmed');
    expect(h.payments.payments.rows.size).toBe(0);
  });

  it('is allowed after the 22:00 cut-off of day 11 (the window is the whole London date)', async () => {
    const h = await claimsHarness();
    const { claim } = h.file();
    h.moveTo('2027-01-08T22:00:00.000Z');
    expect(reverse(h, claim.id).submission.attributes.status).toBe('accepted');
  });

  it('is refused from 00:00 London on the day after day 11 (winter), naming the last day', async () => {
    const h = await claimsHarness();
    const { claim } = h.file();
    h.moveTo('2027-01-09T00:00:00.000Z');
    const err = failure(() => reverse(h, claim.id));
    expect(err.kind).toBe('invalid');
    expect(err.message).toBe(
      `claim ${claim.id} can no longer be reversed: the reversal window closed at the end of 2027-01-08 (working day D0+11, submission day D0 2026-12-21)`,
    );
  });

  it('is refused on working day 12', async () => {
    const h = await claimsHarness();
    const { claim } = h.file();
    h.advance({ working_days: 12 });
    expect(h.clock.now().toISOString()).toBe('2027-01-11T09:00:00.000Z');
    expect(failure(() => reverse(h, claim.id)).message).toContain(
      'the reversal window closed at the end of 2027-01-08 (working day D0+11',
    );
  });

  it('follows the London date in summer (BST): allowed at 22:59:59.999Z on day 11, refused at 23:00Z', async () => {
    const h = await claimsHarness();
    h.moveTo('2027-06-07T09:00:00.000Z'); // Monday 7 June 2027
    const late = h.file().claim;
    const inTime = h.file().claim;
    expect(h.claims.submissionOf(late.id)!.attributes).toMatchObject({
      submission_date: '2027-06-07',
      reversal_deadline: '2027-06-22',
    });
    h.moveTo('2027-06-22T22:59:59.999Z'); // 23:59:59.999 London on D0+11
    expect(reverse(h, inTime.id).submission.attributes.status).toBe('accepted');
    h.moveTo('2027-06-22T23:00:00.000Z'); // 00:00 London on 23 June
    expect(failure(() => reverse(h, late.id)).message).toContain(
      'the reversal window closed at the end of 2027-06-22 (working day D0+11',
    );
  });

  it('refuses a reversal created in the window but submitted after it', async () => {
    const h = await claimsHarness();
    const { claim } = h.file();
    h.advance({ working_days: 11 });
    const sequence = h.claims.submissionOf(claim.id)!.attributes.sequence_number!;
    const reversal = h.claims.reversals.create(
      claim.id,
      { id: randomUUID(), organisation_id: HARNESS_ORG, original_instruction_id: sequence },
      HARNESS_ORG,
    );
    h.advance({ working_days: 1 });
    const err = failure(() =>
      h.claims.reversals.submit(claim.id, reversal.id, { id: randomUUID(), organisation_id: HARNESS_ORG }, HARNESS_ORG),
    );
    expect(err.kind).toBe('invalid');
    h.advance({ working_days: 2 });
    expect(h.claims.get(claim.id, claim.organisation_id).relationships?.payment).toBeDefined(); // never submitted: still settled
  });

  it('needs the sequence number of the claim (400 otherwise) and only one reversal per claim', async () => {
    const h = await claimsHarness();
    const { claim } = h.file();
    h.advance({ working_days: 1 });
    const wrong = failure(() => reverse(h, claim.id, '999999999999'));
    expect(wrong.kind).toBe('invalid');
    expect(wrong.message).toContain('original_instruction_id in body should equal the sequence number');
    const { reversal } = reverse(h, claim.id);
    expect(failure(() => reverse(h, claim.id)).kind).toBe('invalid');
    const again = failure(() =>
      h.claims.reversals.submit(claim.id, reversal.id, { id: randomUUID(), organisation_id: HARNESS_ORG }, HARNESS_ORG),
    );
    expect(again.message).toContain('has already been submitted');
  });

  it('is refused for a claim that was never submitted', async () => {
    const h = await claimsHarness();
    const claim = h.claims.create({
      id: randomUUID(),
      organisation_id: HARNESS_ORG,
      attributes: (await import('../../harness/claim-attributes.ts')).claimAttributes(),
    });
    expect(failure(() => reverse(h, claim.id, '1')).message).toContain('has not been submitted');
  });
});
