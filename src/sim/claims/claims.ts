// DDIC claims: the Claims service (claims and their submissions), with reversals and the timeline.
import type { BacsCalendar } from '../../clock/calendar.ts';
import { isoTimestamp } from '../../clock/clock.ts';
import { DateRangeError, LAST_DATE, SUPPORTED_RANGE } from '../../clock/dates.ts';
import type { Scheduler } from '../../clock/scheduler.ts';
import { invalid } from '../errors.ts';
import { type FilterField, filterPredicate, valueAt } from '../list-filter.ts';
import type { Payments } from '../payments/payments.ts';
import { Repository, type RepositoryContext } from '../repository.ts';
import { type Resource, ref, relatedId } from '../resource.ts';
import type { Scenarios } from '../scenarios/scenarios.ts';
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
import { registerClaimScenarios } from './claim-scenarios.ts';
import { ClaimTimeline } from './claim-timeline.ts';
import { upgradeLegacySubmissions } from './legacy-submissions.ts';
import type { ReportArrivals } from './report-arrivals.ts';

/** Every filter of Form3's claim list; `submission.*` and `reversal.*` read the claim's submissions. */
export const CLAIM_FILTERS = [
  'organisation_id',
  'payment_scheme',
  'clearing_id',
  'reference',
  'reason_code',
  'contact_name',
  'debtor_party.account_number',
  'debtor_party.bank_id',
  'beneficiary_party.account_number',
  'beneficiary_party.bank_id',
  'original_instruction.reference',
  'submission.status',
  'submission.submission_date_from',
  'submission.submission_date_to',
  'reversal.status',
  'reversal.submission_date_from',
  'reversal.submission_date_to',
] as const;
export type ClaimFilter = Partial<Record<(typeof CLAIM_FILTERS)[number], string | readonly string[]>>;

export interface ClaimsDeps {
  scheduler: Scheduler;
  calendar: BacsCalendar;
  payments: Payments;
  /** Where the DDIC claim submission report arrives (the reports service, or a fake in tests). */
  reports: ReportArrivals;
  /** Where the claim scenarios are played from (validation or delivery failed, contra late or withheld). */
  scenarios: Scenarios;
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
    this.claims = new Repository<ClaimAttributes>(ctx, CLAIM_TYPE, {
      path: claimPath,
      embeds: ['claim_submission', 'claim_reversal'], // go-form3 ClaimRelationships
    });
    this.submissions = new Repository<ClaimSubmissionAttributes>(ctx, CLAIM_SUBMISSION_TYPE, {
      path: claimSubmissionPath,
      embeds: ['claim'], // go-form3 ClaimSubmissionRelationships
    });
    this.submissions.rows.defineIndex('claim', (s) => relatedId(s, 'claim'));
    upgradeLegacySubmissions(this.submissions.rows, this.claims.rows);
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
      scenarios: deps.scenarios,
      isReversed: (claimId) => this.reversals.isReversed(claimId),
    });
    registerClaimScenarios(deps.scenarios, {
      claims: this.claims,
      submissions: this.submissions,
      isReversed: (claimId) => this.reversals.isReversed(claimId),
    });
  }

  /** Stores a claim its schema accepted (claim-create.json); the scheme's rules wait for the validation step. */
  create(input: NewRecord & { attributes: ClaimAttributes }): Claim {
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
    return this.claims.listFor(organisationId).filter(filterPredicate(filter, this.#filterFields));
  }

  readonly #filterFields: Readonly<Record<string, FilterField<Claim>>> = (() => {
    const attribute = (path: string) => (c: Claim) => valueAt(c.attributes, path);
    const submission = (c: Claim) => this.submissionOf(c.id)?.attributes;
    const reversal = (c: Claim) => {
      const r = this.reversals.reversalOf(c.id);
      return r && this.reversals.submissionOfReversal(r.id)?.attributes;
    };
    const fields: Record<string, FilterField<Claim>> = {
      organisation_id: { value: (c) => c.organisation_id, compare: 'exact' },
      payment_scheme: { value: attribute('payment_scheme'), compare: 'case_insensitive' },
      'submission.status': { value: (c) => submission(c)?.status, compare: 'exact' },
      'submission.submission_date_from': { value: (c) => submission(c)?.submission_date, compare: 'date_from' },
      'submission.submission_date_to': { value: (c) => submission(c)?.submission_date, compare: 'date_to' },
      'reversal.status': { value: (c) => reversal(c)?.status, compare: 'exact' },
      'reversal.submission_date_from': { value: (c) => reversal(c)?.submission_date, compare: 'date_from' },
      'reversal.submission_date_to': { value: (c) => reversal(c)?.submission_date, compare: 'date_to' },
    };
    for (const name of CLAIM_FILTERS) fields[name] ??= { value: attribute(name), compare: 'exact' };
    return fields;
  })();

  /**
   * Sends the claim: a submission `validation_pending` now, for working day D0 (the London date, or the next
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
      attributes: { status: 'validation_pending', submission_datetime: isoTimestamp(now), ...dates },
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
