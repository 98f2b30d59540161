// The responder scenarios of name verification: the payee's bank answers late, or not at all. Each
// waits, pending, for the organisation's next request routed to that participant (docs/scenarios.md).
import { invalid } from '../errors.ts';
import type { Scenario, Scenarios } from '../scenarios/scenarios.ts';
import type { Participant } from './participant.ts';
import type { Participants } from './participants.ts';

export const RESPONDER_SLOW = 'name_verification.responder_slow';
export const RESPONDER_FAILED = 'name_verification.responder_failed';

/** The oldest pending scenario of that name the organisation aimed at the participant, if any. */
export function pendingResponderScenario(
  scenarios: Scenarios,
  organisationId: string,
  name: typeof RESPONDER_SLOW | typeof RESPONDER_FAILED,
  participant: Participant,
): Scenario | undefined {
  return scenarios
    .list(organisationId, { name, status: 'pending' })
    .find((s) => s.attributes.parameters.open_banking_id === participant.open_banking_id);
}

/**
 * Both scenarios are played by the name verification flow when a request reaches the participant;
 * here they are only checked: the participant must exist.
 */
export function registerNameVerificationScenarios(scenarios: Scenarios, participants: Participants): void {
  const check = (parameters: Record<string, unknown>) => {
    const id = parameters.open_banking_id;
    if (typeof id !== 'string' || !participants.find(id))
      throw invalid(
        `parameters.open_banking_id must name a participant; known: ${participants
          .all()
          .map((p) => p.open_banking_id)
          .join(', ')}`,
      );
  };
  scenarios.register(RESPONDER_SLOW, { check });
  scenarios.register(RESPONDER_FAILED, { check });
}
