import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { storedData } from '../../../test/support/stored-data.ts';
import { SchemeClock } from '../../clock/scheme-clock.ts';
import { claimAttributes } from '../../harness/claim-attributes.ts';
import { createRuntime } from '../../runtime.ts';
import { upgradedSubmission } from './legacy-submissions.ts';

const dir = mkdtempSync(join(tmpdir(), 'legacy-claims-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('claim submissions of older data files', () => {
  it('reads settled as delivery_confirmed (payment moved off) and a waiting accepted as validation_pending', () => {
    const settled = {
      attributes: { status: 'settled' },
      relationships: { claim: { data: [] }, payment: { data: [] } },
    };
    expect(upgradedSubmission(settled)).toEqual({
      attributes: { status: 'delivery_confirmed' },
      relationships: { claim: { data: [] } },
    });
    expect(upgradedSubmission({ attributes: { status: 'accepted' } })).toEqual({
      attributes: { status: 'validation_pending' },
    });
    const current = { attributes: { status: 'queued_for_delivery' } };
    expect(upgradedSubmission(current)).toBe(current);
  });

  it('opens a file with a settled submission, keeps the claim and names its contra on the claim', async () => {
    const file = join(dir, 'old.json');
    const clock = SchemeClock.frozenAt('2026-12-21T09:00:00.000Z');
    const options = { data: file, seedAccounts: false, scheduledReports: false, clock };
    const rt = await createRuntime(options);
    const organisation = rt.sim.organisations.list[0]!.id;
    const claim = rt.sim.claims.create({
      id: randomUUID(),
      organisation_id: organisation,
      attributes: claimAttributes(),
    });
    const submission = rt.sim.claims.submit(
      claim.id,
      { id: randomUUID(), organisation_id: organisation },
      organisation,
    );
    await rt.sim.store.commit();
    await rt.close();
    // Rewrite it as an older simulator kept it: settled, the contra on the submission, none on the claim.
    const data = await storedData(file);
    rmSync(`${file}.journal`); // the file below replaces the whole store, journal and all
    const payment = { data: [{ id: randomUUID(), type: 'payments' }] };
    const stored = data.collections.claim_submissions![submission.id] as any;
    stored.attributes.status = 'settled';
    stored.attributes.sequence_number = '000000000001';
    stored.relationships.payment = payment;
    writeFileSync(file, JSON.stringify(data));

    const reopened = await createRuntime(options);
    try {
      const s = reopened.sim.claims.submissions.find(submission.id)!;
      expect(s.attributes.status).toBe('delivery_confirmed');
      expect(s.relationships?.payment).toBeUndefined();
      expect(reopened.sim.claims.claims.find(claim.id)!.relationships?.payment).toEqual(payment);
    } finally {
      await reopened.close();
    }
  });
});
