// The validation step of a claim submission: the scheme's rules first (claim-rules.ts), then a
// scenario aimed at the submission, then the magic amounts that play a scenario without the API.
import { newId } from '../new-id.ts';
import { formatPence } from '../payments/money.ts';
import { MAGIC_CLAIM_AMOUNTS } from '../scenarios/scenario-catalogue.ts';
import type { Scenario, Scenarios } from '../scenarios/scenarios.ts';
import type { Claim, ClaimSubmission } from './claim-resources.ts';
import { claimPence, schemeRuleViolations } from './claim-rules.ts';

export type ValidationOutcome = { passed: true } | { passed: false; reason: string; scenario?: Scenario };

export const DEFAULT_VALIDATION_FAILURE = 'the scheme refused the claim at validation';

/**
 * Passed, or failed with the reason: every rule the claim breaks (joined with `; `), or the
 * scenario's reason. A claim whose total is a magic amount records its scenario here, pending for
 * the step it changes (or applied now, for a validation failure).
 */
export function validationOutcome(
  claim: Claim,
  s: ClaimSubmission,
  today: string,
  scenarios: Scenarios,
): ValidationOutcome {
  const violations = schemeRuleViolations(claim.attributes, today);
  if (violations.length > 0) return { passed: false, reason: violations.join('; ') };
  const magic = MAGIC_CLAIM_AMOUNTS[formatPence(claimPence(claim.attributes))];
  if (magic && !scenarios.pendingFor(s.id, magic)) {
    scenarios.trigger({
      id: newId(),
      organisation_id: s.organisation_id,
      name: magic,
      target_id: s.id,
      source: 'magic_value',
      parameters: magic === 'claim.contra_delayed' ? { working_days: 1 } : {},
    });
  }
  const failure = scenarios.pendingFor(s.id, 'claim_submission.validation_failed');
  if (!failure) return { passed: true };
  return {
    passed: false,
    reason: String(failure.attributes.parameters.reason ?? DEFAULT_VALIDATION_FAILURE),
    scenario: failure,
  };
}
