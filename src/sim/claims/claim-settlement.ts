// Settlement (D0+14): one contra per (organisation, D0) for the delivered claims not reversed, and
// the scenarios that keep a claim out of it (a contra delayed by working days, or withheld). A
// settled claim names its contra in `relationships.payment`; the contra names its claims.
import type { Scheduler } from '../../clock/scheduler.ts';
import type { Payments } from '../payments/payments.ts';
import type { Repository } from '../repository.ts';
import { ref, relatedId } from '../resource.ts';
import { namingScenario, type Scenarios } from '../scenarios/scenarios.ts';
import type { ClaimCalendar } from './claim-calendar.ts';
import { schemeStepAt } from './claim-dates.ts';
import type { Claim, ClaimAttributes, ClaimSubmission, ClaimSubmissionAttributes } from './claim-resources.ts';
import { contraPayment } from './contra.ts';

const CONTRA_META = 'claims.contra_number';
export const SETTLE_LATE_JOB = 'claims.settle_late';
/** How many working days late a contra can be made (the scenario's parameter). */
export const MAX_CONTRA_DELAY_DAYS = 20;

export interface ClaimSettlementDeps {
  scheduler: Scheduler;
  dates: ClaimCalendar;
  claims: Repository<ClaimAttributes>;
  submissions: Repository<ClaimSubmissionAttributes>;
  payments: Payments;
  scenarios: Scenarios;
  isReversed(claimId: string): boolean;
  batch(b: { organisation_id: string; submission_date: string }): ClaimSubmission[];
  nextNumber(meta: string, width: number): string;
}

export class ClaimSettlement {
  readonly #d: ClaimSettlementDeps;

  constructor(deps: ClaimSettlementDeps) {
    this.#d = deps;
  }

  /** D0+14: every delivered claim of the batch, not reversed and not held back, settled by one contra. */
  settleBatch(b: { organisation_id: string; submission_date: string }): void {
    const settling: Array<{ submission: ClaimSubmission; claim: Claim }> = [];
    for (const s of this.#d.batch(b)) {
      const claim = this.#settleable(s);
      if (claim && !this.#heldBack(s)) settling.push({ submission: s, claim });
    }
    this.#contra(b.organisation_id, b.submission_date, settling);
  }

  /** The later settlement of one claim whose contra a scenario delayed. */
  settleLate(submissionId: string): void {
    const s = this.#d.submissions.find(submissionId);
    const claim = s && this.#settleable(s);
    if (s && claim) this.#contra(s.organisation_id, s.attributes.submission_date, [{ submission: s, claim }]);
  }

  /** The claim, when its submission was delivered, it was not reversed and no contra settled it yet. */
  #settleable(s: ClaimSubmission): Claim | undefined {
    if (s.attributes.status !== 'delivery_confirmed') return undefined;
    const claimId = relatedId(s, 'claim')!;
    if (this.#d.isReversed(claimId)) return undefined;
    const claim = this.#d.claims.get(claimId);
    return relatedId(claim, 'payment') === undefined ? claim : undefined;
  }

  /** Plays a pending withheld or delayed contra: the submission records it; true when held back. */
  #heldBack(s: ClaimSubmission): boolean {
    const { scenarios } = this.#d;
    const withheld = scenarios.pendingFor(s.id, 'claim.contra_withheld');
    if (withheld) {
      this.#d.submissions.update(s.id, undefined, (r) => namingScenario(r, withheld));
      scenarios.applied(
        withheld,
        `claim ${relatedId(s, 'claim')} left out of the contra of ${s.attributes.settlement_date}; it is never settled`,
      );
      return true;
    }
    const delayed = scenarios.pendingFor(s.id, 'claim.contra_delayed');
    if (!delayed) return false;
    const days = Number(delayed.attributes.parameters.working_days ?? 1);
    const settlement_date = this.#d.dates.calendar.addWorkingDays(s.attributes.settlement_date, days);
    this.#d.submissions.update(s.id, undefined, (r) =>
      namingScenario({ ...r, attributes: { ...r.attributes, settlement_date } }, delayed),
    );
    this.#d.scheduler.schedule(
      SETTLE_LATE_JOB,
      schemeStepAt(settlement_date),
      { submission_id: s.id },
      `${SETTLE_LATE_JOB}:${s.id}`,
      s.organisation_id,
    );
    scenarios.applied(
      delayed,
      `contra of claim ${relatedId(s, 'claim')} delayed ${days} working day${days === 1 ? '' : 's'}, from ${s.attributes.settlement_date} to ${settlement_date}`,
    );
    return true;
  }

  /** One contra Payment (+ admission) for the claims; each claim then names it. */
  #contra(organisationId: string, d0: string, settling: Array<{ submission: ClaimSubmission; claim: Claim }>): void {
    if (settling.length === 0) return;
    const { payment } = this.#d.payments.admit(
      contraPayment({
        organisation_id: organisationId,
        submission_date: d0,
        settlement_date: settling[0]!.submission.attributes.settlement_date,
        contra_number: this.#d.nextNumber(CONTRA_META, 8),
        claims: settling.map((x) => x.claim),
      }),
    );
    for (const { claim } of settling) {
      this.#d.claims.update(claim.id, undefined, (c) => ({
        ...c,
        relationships: { ...c.relationships, payment: { data: [ref(payment)] } },
      }));
    }
  }
}
