import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { claimAttributes } from './harness/claim-attributes.ts';
import { advance, createRuntime, frozenAt } from './index.ts';

describe('the programmatic API of the README', () => {
  it('starts with a frozen clock and advances it in code: a claim settles 14 working days later', async () => {
    const runtime = await createRuntime({ memory: true, clock: frozenAt('2026-12-21T09:00:00Z') });
    try {
      const org = runtime.sim.organisations.list[0]!.id;
      const claim = runtime.sim.claims.create({
        id: randomUUID(),
        organisation_id: org,
        attributes: claimAttributes(),
      });
      runtime.sim.claims.submit(claim.id, { id: randomUUID(), organisation_id: org }, org);
      const result = await advance(runtime, { working_days: 14 });
      expect(runtime.sim.clock.now().toISOString()).toBe('2027-01-13T09:00:00.000Z');
      expect(result.jobs_run_by_kind['claims.settle']).toBe(1);
      expect(runtime.sim.claims.get(claim.id, org).relationships?.payment).toBeDefined();
    } finally {
      await runtime.close();
    }
  });
});
