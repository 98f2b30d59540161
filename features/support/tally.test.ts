import { describe, expect, it } from 'vitest';
import { FlowTally, flowOf } from './tally.ts';

describe('the tally by flow', () => {
  it('files variants of a flow under the flow', () => {
    expect(flowOf('features/claims.feature')).toBe('claims');
    expect(flowOf('features/claims_on_any_target.feature')).toBe('claims');
    expect(flowOf('features/claims_journey.feature')).toBe('claims');
    expect(flowOf('features/name_verification_known_account.feature')).toBe('name verification');
    expect(flowOf('features/validation.feature')).toBe('accounts');
  });

  it('prints one line, flows sorted, failures and skips named', () => {
    const t = new FlowTally();
    t.add('features/reports.feature', 'passed');
    t.add('features/claims.feature', 'passed');
    t.add('features/claims_journey.feature', 'skipped');
    t.add('features/accounts.feature', 'failed');
    expect(t.line()).toBe('by flow: accounts 0/1 (1 failed), claims 1/2 (1 skipped), reports 1/1');
    expect(new FlowTally().line()).toBe('by flow: no scenarios');
  });
});
