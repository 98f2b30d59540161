// DDIC claims: the Claims service (claims and their submissions), with reversals and the timeline.
import type { BacsCalendar } from '../../clock/calendar.ts';
import { isoTimestamp } from '../../clock/clock.ts';
import { DateRangeError, LAST_DATE, SUPPORTED_RANGE } from '../../clock/dates.ts';
import type { Scheduler } from '../../clock/scheduler.ts';
import { invalid } from '../errors.ts';
import type { Payments } from '../payments/payments.ts';
import { Repository, type RepositoryContext } from '../repository.ts';
import { type Resource, ref, relatedId } from '../resource.ts';
import { ClaimCalendar } from './claim-calendar.ts';
import { type ClaimDates, SETTLEMENT_DAY } from './claim-dates.ts';
import {
  CLAIM_SUBMISSION_TYPE,
  CLAIM_TYPE,
  type Claim,
  type ClaimAttributes,
  type ClaimSubmission,
  type ClaimSubmissionAttributes,
  claimPath,
  claimSubmissionPath,
} from './claim-resources.ts';
import { ClaimReversals, type NewRecord } from './claim-reversals.ts';
import { assertClaimRules } from './claim-rules.ts';
import { ClaimTimeline } from './claim-timeline.ts';
import type { ReportArrivals } from './report-arrivals.ts';

/** Filters of the claim list: exact matches, `submission.status` on the claim's submission. */
export const CLAIM_FILTERS = ['reference', 'clearing_id', 'reason_code', 'submission.status'] as const;
export type ClaimFilter = Partial<Record<(typeof CLAIM_FILTERS)[number], string>>;

export interface ClaimsDeps {
  scheduler: Scheduler;
  calendar: BacsCalendar;
  payments: Payments;
  /** Where the DDIC claim submission report arrives (the reports service, or a fake in tests). */
  reports: ReportArrivals;
}

export class Claims {
  readonly claims: Repository<ClaimAttributes>;
  readonly submissions: Repository<ClaimSubmissionAttributes>;
  readonly reversals: ClaimReversals;
  readonly timeline: ClaimTimeline;
  readonly #dates: ClaimCalendar;
  readonly #store: RepositoryContext['store'];

  constructor(ctx: RepositoryContext, deps: ClaimsDeps) {
    this.#store = ctx.store;
    this.#dates = new ClaimCalendar(deps.calendar);
    this.claims = new Repository<ClaimAttributes>(ctx, CLAIM_TYPE, { path: claimPath });
    this.submissions = new Repository<ClaimSubmissionAttributes>(ctx, CLAIM_SUBMISSION_TYPE, {
      path: claimSubmissionPath,
    });
    this.submissions.rows.defineIndex('claim', (s) => relatedId(s, 'claim'));
    this.reversals = new ClaimReversals(ctx, {
      scheduler: deps.scheduler,
      dates: this.#dates,
      claim: (id, org) => this.get(id, org),
      submissionOf: (claimId) => this.submissionOf(claimId),
      linkReversal: (claim, reversal) => this.#link(claim, 'claim_reversal', reversal),
    });
    this.timeline = new ClaimTimeline({
      store: ctx.store,
      scheduler: deps.scheduler,
      dates: this.#dates,
      claims: this.claims,
      submissions: this.submissions,
      payments: deps.payments,
      reports: deps.reports,
      isReversed: (claimId) => this.reversals.isReversed(claimId),
    });
  }

  /** Stores a claim after checking the rules that span fields (see claim-rules.ts). */
  create(input: NewRecord & { attributes: ClaimAttributes }): Claim {
    assertClaimRules(input.attributes, this.#dates.london(this.claims.clock.now()).date);
    return this.claims.create({
      id: input.id,
      organisation_id: input.organisation_id,
      // As sent: Form3 echoes payment_scheme in the client's spelling (its enum says BACS).
      attributes: input.attributes,
    });
  }

  get(id: string, organisationId: string): Claim {
    return this.claims.get(id, organisationId);
  }

  list(organisationId: string, filter: ClaimFilter = {}): Claim[] {
    const { 'submission.status': status, ...plain } = filter;
    const claims = this.claims.list(organisationId, plain);
    return status === undefined ? claims : claims.filter((c) => this.submissionOf(c.id)?.attributes.status === status);
  }

  /**
   * Sends the claim: a submission `accepted` now, for working day D0 (the London date, or the next
   * working day after the 22:00 cut-off or on a closed day); the timeline takes it from there.
   */
  submit(claimId: string, input: NewRecord, organisationId: string): ClaimSubmission {
    // Submission, link and timeline jobs are written together or not at all.
    return this.#store.atomically(() => this.#submit(claimId, input, organisationId));
  }

  #submit(claimId: string, input: NewRecord, organisationId: string): ClaimSubmission {
    const claim = this.get(claimId, organisationId);
    const existing = this.submissionOf(claim.id);
    if (existing) throw invalid(`claim ${claim.id} has already been submitted (claim submission ${existing.id})`);
    const now = this.claims.clock.now();
    const dates = this.#timelineFrom(now, claim.id);
    const submission = this.submissions.create({
      id: input.id,
      organisation_id: claim.organisation_id,
      attributes: { status: 'accepted', submission_datetime: isoTimestamp(now), ...dates },
      relationships: { claim: { data: [ref(claim)] } },
    });
    this.#link(claim, 'claim_submission', submission);
    this.timeline.plan(submission);
    return submission;
  }

  /** The dates of a submission made at `now`; 400 when its timeline would leave the supported dates. */
  #timelineFrom(now: Date, claimId: string): ClaimDates {
    try {
      return this.#dates.dates(this.#dates.dayOf(now));
    } catch (err) {
      if (!(err instanceof DateRangeError)) throw err;
      throw invalid(
        `claim ${claimId} cannot be submitted at ${now.toISOString()}: its timeline runs to working day D0+${SETTLEMENT_DAY}, past ${LAST_DATE}, the last date the simulator supports (${SUPPORTED_RANGE})`,
      );
    }
  }

  getSubmission(claimId: string, submissionId: string, organisationId: string): ClaimSubmission {
    return this.submissions.getChild(submissionId, organisationId, { claim: claimId });
  }

  /** The claim's submission (a claim is submitted at most once). */
  submissionOf(claimId: string): ClaimSubmission | undefined {
    return this.submissions.rows.first('claim', claimId);
  }

  /** Adds a related record to the claim's relationships (a change of the claim: version + 1). */
  #link(claim: Claim, name: 'claim_submission' | 'claim_reversal', related: Resource<object>): void {
    this.claims.update(claim.id, undefined, (c) => {
      const list = c.relationships?.[name]?.data ?? [];
      return { ...c, relationships: { ...c.relationships, [name]: { data: [...list, ref(related)] } } };
    });
  }
}
