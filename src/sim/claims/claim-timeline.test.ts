import { describe, expect, it } from 'vitest';
import { type ClaimsHarness, claimsHarness } from '../../../test/support/claims-harness.ts';
import { relatedId } from '../resource.ts';

const status = (h: ClaimsHarness, id: string) => h.claims.submissions.find(id)!.attributes;

describe('the timeline of a claim submitted Monday 2026-12-21 09:00', () => {
  it('walks every status on its day and London time, each change a new version with an updated event', async () => {
    const h = await claimsHarness();
    const { submission } = h.file(['12.34']);
    expect(submission.attributes).toMatchObject({
      status: 'validation_pending',
      submission_date: '2026-12-21',
      settlement_date: '2027-01-13',
    });
    expect(submission.version).toBe(0);

    h.advance({ hours: 1 }); // 10:00: validated at acceptance time
    expect(status(h, submission.id).status).toBe('validation_passed');
    h.moveTo('2026-12-21T21:59:59.999Z');
    expect(status(h, submission.id).status).toBe('validation_passed');
    h.moveTo('2026-12-21T22:00:00.000Z');
    expect(status(h, submission.id).status).toBe('released_to_gateway');
    expect(h.reports).toHaveLength(0);

    h.moveTo('2026-12-21T23:59:59.999Z');
    expect(status(h, submission.id).sequence_number).toBeUndefined();
    h.moveTo('2026-12-22T00:00:00.000Z');
    const processed = h.claims.submissions.find(submission.id)!;
    expect(processed.attributes).toMatchObject({ status: 'queued_for_delivery', sequence_number: '000000000001' });
    expect(processed.modified_on).toBe('2026-12-22T00:00:00.000Z');
    expect(processed.version).toBe(3);
    expect(h.reports).toEqual([
      {
        organisation_id: submission.organisation_id,
        report_type: 'BACS_DDIC_CLAIM_SUBMISSION',
        processing_date: '2026-12-22',
        rows: [expect.objectContaining({ Reference: 'DDIC0001', SequenceNumber: '000000000001', Amount: '12.34' })],
      },
    ]);

    h.advance({ working_days: 1 });
    expect(status(h, submission.id).status).toBe('delivery_confirmed');

    h.moveTo('2027-01-12T23:59:00.000Z');
    expect(status(h, submission.id).status).toBe('delivery_confirmed');
    expect(h.payments.payments.rows.size).toBe(0);
    h.moveTo('2027-01-13T00:00:00.000Z');
    // Settlement is no status (Form3's enum has none): the claim names its contra, the submission stays.
    const delivered = h.claims.submissions.find(submission.id)!;
    expect(delivered.attributes.status).toBe('delivery_confirmed');
    expect(delivered.version).toBe(4);
    const settled = h.claims.claims.find(relatedId(delivered, 'claim')!)!;
    const updates = h.events.filter((e) => e.record_type === 'claim_submissions' && e.event_type === 'updated');
    expect(updates.map((e) => (e.record.attributes as { status: string }).status)).toEqual([
      'validation_passed',
      'released_to_gateway',
      'queued_for_delivery',
      'delivery_confirmed',
    ]);
    const claimUpdates = h.events.filter((e) => e.record_type === 'claims' && e.event_type === 'updated');
    expect(claimUpdates.at(-1)!.record.relationships?.payment).toBeDefined();
    const [payment] = h.payments.payments.rows.values();
    expect(settled.relationships?.payment?.data).toEqual([{ id: payment!.id, type: 'payments' }]);
    expect(payment!.attributes).toMatchObject({ amount: '12.34', processing_date: '2027-01-13' });
  });

  it('a claim filed at the weekend counts from the next working day and validates at 00:00 London on Monday', async () => {
    const h = await claimsHarness('2027-01-09T11:00:00.000Z'); // Saturday
    const { submission } = h.file();
    expect(submission.attributes).toMatchObject({ submission_date: '2027-01-11', processing_date: '2027-01-12' });
    h.moveTo('2027-01-10T23:59:00.000Z');
    expect(status(h, submission.id).status).toBe('validation_pending');
    h.moveTo('2027-01-11T00:00:00.000Z');
    expect(status(h, submission.id).status).toBe('validation_passed');
  });

  it('the cut-off in summer: 21:59 London is D0, 22:00 London the next working day', async () => {
    const early = await claimsHarness('2027-06-15T20:59:00.000Z');
    expect(early.file().submission.attributes).toMatchObject({
      submission_date: '2027-06-15',
      settlement_date: '2027-07-05',
    });
    const late = await claimsHarness('2027-06-15T21:00:00.000Z');
    const { submission } = late.file();
    expect(submission.attributes).toMatchObject({ submission_date: '2027-06-16', processing_date: '2027-06-17' });
    // released at 22:00 London (21:00Z) of its own D0, not the evening it was sent
    late.moveTo('2027-06-16T20:59:00.000Z');
    expect(status(late, submission.id).status).toBe('validation_passed');
    late.moveTo('2027-06-16T21:00:00.000Z');
    expect(status(late, submission.id).status).toBe('released_to_gateway');
  });

  it('the cut-off in winter: 21:59 London is D0, 22:00 London the next working day', async () => {
    const early = await claimsHarness('2026-12-22T21:59:00.000Z');
    expect(early.file().submission.attributes.submission_date).toBe('2026-12-22');
    const late = await claimsHarness('2026-12-22T22:00:00.000Z');
    expect(late.file().submission.attributes).toMatchObject({
      submission_date: '2026-12-23',
      settlement_date: '2027-01-15',
    });
  });

  it('settles across Easter 2027 on the 14th working day', async () => {
    const h = await claimsHarness('2027-03-18T10:00:00.000Z'); // London 10:00 (GMT until 28 March)
    const { submission } = h.file(['5.00']);
    h.advance({ working_days: 13 });
    expect(h.clock.now().toISOString()).toBe('2027-04-08T09:00:00.000Z'); // 10:00 BST
    expect(status(h, submission.id).status).toBe('delivery_confirmed');
    h.advance({ working_days: 1 });
    expect(h.claims.claims.find(relatedId(submission, 'claim')!)!.relationships?.payment).toBeDefined();
    expect([...h.payments.payments.rows.values()][0]!.attributes.processing_date).toBe('2027-04-09');
  });

  it('numbers the claims of a day in submission order in one report', async () => {
    const h = await claimsHarness();
    const a = h.file(['1.00'], { reference: 'DDICA1' });
    const b = h.file(['2.00'], { reference: 'DDICB2' });
    h.advance({ working_days: 1 });
    expect(h.reports).toHaveLength(1);
    expect(h.reports[0]!.rows!.map((r) => [r.Reference, r.SequenceNumber])).toEqual([
      ['DDICA1', status(h, a.submission.id).sequence_number],
      ['DDICB2', status(h, b.submission.id).sequence_number],
    ]);
    expect(status(h, b.submission.id).sequence_number).toBe('000000000002');
  });
});
