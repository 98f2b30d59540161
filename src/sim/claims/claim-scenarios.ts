// How the claim scenarios are aimed: at a claim submission that has not yet passed the step the
// scenario changes. The timeline (claim-timeline.ts, claim-settlement.ts) plays them at that step.
import { invalid } from '../errors.ts';
import type { Repository } from '../repository.ts';
import { ref, relatedId } from '../resource.ts';
import type { ScenarioName } from '../scenarios/scenario-catalogue.ts';
import type { Scenarios } from '../scenarios/scenarios.ts';
import type { ClaimAttributes, ClaimSubmission, ClaimSubmissionAttributes } from './claim-resources.ts';
import { MAX_CONTRA_DELAY_DAYS } from './claim-settlement.ts';

const BEFORE_VALIDATION = ['accepted', 'validation_pending'];
const BEFORE_DELIVERY = [...BEFORE_VALIDATION, 'validation_passed', 'released_to_gateway', 'queued_for_delivery'];
const BEFORE_SETTLEMENT = [...BEFORE_DELIVERY, 'delivery_confirmed'];

export interface ClaimScenarioDeps {
  claims: Repository<ClaimAttributes>;
  submissions: Repository<ClaimSubmissionAttributes>;
  isReversed(claimId: string): boolean;
}

function refuse(s: ClaimSubmission, name: ScenarioName, why: string): never {
  throw invalid(`scenario ${name} cannot be played on claim submission ${s.id}: ${why}`);
}

/** Registers the four claim scenarios with the target each accepts. */
export function registerClaimScenarios(scenarios: Scenarios, d: ClaimScenarioDeps): void {
  const aim = (name: ScenarioName, statuses: string[], step: string) =>
    scenarios.register(name, {
      target(id, organisationId, parameters) {
        const s = d.submissions.get(id, organisationId);
        if (!statuses.includes(s.attributes.status)) refuse(s, name, `it is ${s.attributes.status}, past ${step}`);
        if (name.startsWith('claim.')) {
          const claimId = relatedId(s, 'claim')!;
          if (d.isReversed(claimId)) refuse(s, name, `claim ${claimId} was reversed and is never settled`);
          if (relatedId(d.claims.get(claimId), 'payment') !== undefined)
            refuse(s, name, `claim ${claimId} is already settled`);
        }
        if (name === 'claim.contra_delayed') {
          const days = parameters.working_days ?? 1;
          if (!Number.isInteger(days) || (days as number) < 1 || (days as number) > MAX_CONTRA_DELAY_DAYS)
            throw invalid(`parameters.working_days must be a whole number from 1 to ${MAX_CONTRA_DELAY_DAYS}`);
        }
        return ref(s);
      },
    });
  aim('claim_submission.validation_failed', BEFORE_VALIDATION, 'validation');
  aim('claim_submission.delivery_failed', BEFORE_DELIVERY, 'delivery');
  aim('claim.contra_delayed', BEFORE_SETTLEMENT, 'settlement');
  aim('claim.contra_withheld', BEFORE_SETTLEMENT, 'settlement');
}
