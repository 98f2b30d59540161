// Claim reversals (cancellations) and their submissions.
import { isoTimestamp } from '../../clock/clock.ts';
import type { Scheduler } from '../../clock/scheduler.ts';
import { invalid } from '../errors.ts';
import { Repository, type RepositoryContext } from '../repository.ts';
import { ref, relatedId } from '../resource.ts';
import type { ClaimCalendar } from './claim-calendar.ts';
import { LAST_REVERSAL_DAY, PROCESSING_DAY, schemeStepAt } from './claim-dates.ts';
import {
  CLAIM_REVERSAL_SUBMISSION_TYPE,
  CLAIM_REVERSAL_TYPE,
  type Claim,
  type ClaimReversal,
  type ClaimReversalAttributes,
  type ClaimReversalSubmission,
  type ClaimReversalSubmissionAttributes,
  type ClaimSubmission,
  claimReversalPath,
  claimReversalSubmissionPath,
  FAILED_CLAIM_SUBMISSION_STATUSES,
} from './claim-resources.ts';

export const REVERSAL_JOB = 'claims.reversal.process';

export interface ClaimReversalsDeps {
  scheduler: Scheduler;
  dates: ClaimCalendar;
  /** The claim (404 when unknown to the organisation). */
  claim(id: string, organisationId: string): Claim;
  /** The claim's submission, if it was submitted. */
  submissionOf(claimId: string): ClaimSubmission | undefined;
  /** Records the reversal on the claim's relationships. */
  linkReversal(claim: Claim, reversal: ClaimReversal): void;
}

export interface NewRecord {
  id: string;
  organisation_id: string;
}

export class ClaimReversals {
  readonly reversals: Repository<ClaimReversalAttributes>;
  readonly submissions: Repository<ClaimReversalSubmissionAttributes>;
  readonly #d: ClaimReversalsDeps;
  readonly #store: RepositoryContext['store'];

  constructor(ctx: RepositoryContext, deps: ClaimReversalsDeps) {
    this.#d = deps;
    this.#store = ctx.store;
    this.reversals = new Repository<ClaimReversalAttributes>(ctx, CLAIM_REVERSAL_TYPE, {
      path: claimReversalPath,
      embeds: ['claim', 'claim_reversal_submission'], // go-form3 ClaimReversalRelationships
    });
    this.submissions = new Repository<ClaimReversalSubmissionAttributes>(ctx, CLAIM_REVERSAL_SUBMISSION_TYPE, {
      path: claimReversalSubmissionPath,
      embeds: ['claim', 'claim_reversal'], // go-form3 ClaimReversalSubmissionRelationships
    });
    this.reversals.rows.defineIndex('claim', (r) => relatedId(r, 'claim'));
    this.submissions.rows.defineIndex('reversal', (r) => relatedId(r, 'claim_reversal'));
    deps.scheduler.handle<{ reversal_submission_id: string }>(REVERSAL_JOB, (job) => {
      const s = this.submissions.find(job.payload.reversal_submission_id);
      if (s && s.attributes.status !== 'delivery_confirmed') {
        this.submissions.update(s.id, undefined, (r) => ({
          ...r,
          attributes: { ...r.attributes, status: 'delivery_confirmed' },
        }));
      }
    });
  }

  /** Creates the reversal of a processed claim, inside its window, naming its sequence number. */
  create(claimId: string, input: NewRecord & ClaimReversalAttributes, organisationId: string): ClaimReversal {
    return this.#store.atomically(() => this.#create(claimId, input, organisationId)); // reversal and link, or neither
  }

  #create(claimId: string, input: NewRecord & ClaimReversalAttributes, organisationId: string): ClaimReversal {
    const claim = this.#d.claim(claimId, organisationId);
    const existing = this.reversalOf(claim.id);
    if (existing) throw invalid(`claim ${claim.id} already has a reversal (claim reversal ${existing.id})`);
    const submission = this.#assertReversible(claim);
    if (input.original_instruction_id !== submission.attributes.sequence_number) {
      throw invalid(
        `original_instruction_id in body should equal the sequence number of the claim's submission (${submission.attributes.sequence_number}), got ${JSON.stringify(input.original_instruction_id)}`,
      );
    }
    const reversal = this.reversals.create({
      id: input.id,
      organisation_id: claim.organisation_id,
      attributes: { original_instruction_id: input.original_instruction_id },
      relationships: { claim: { data: [ref(claim)] } },
    });
    this.#d.linkReversal(claim, reversal);
    return reversal;
  }

  /** Sends the cancellation: accepted now, delivery_confirmed on the next working day (00:00 London). */
  submit(claimId: string, reversalId: string, input: NewRecord, organisationId: string): ClaimReversalSubmission {
    return this.#store.atomically(() => this.#submit(claimId, reversalId, input, organisationId)); // submission, link and job, or none
  }

  #submit(claimId: string, reversalId: string, input: NewRecord, organisationId: string): ClaimReversalSubmission {
    const reversal = this.get(claimId, reversalId, organisationId);
    const existing = this.submissionOfReversal(reversal.id);
    if (existing)
      throw invalid(
        `claim reversal ${reversal.id} has already been submitted (claim reversal submission ${existing.id})`,
      );
    const claim = this.#d.claim(claimId, organisationId);
    this.#assertReversible(claim);
    const now = this.reversals.clock.now();
    const day = this.#d.dates.dayOf(now);
    const processing_date = this.#d.dates.calendar.addWorkingDays(day, PROCESSING_DAY);
    const submission = this.submissions.create({
      id: input.id,
      organisation_id: claim.organisation_id,
      attributes: { status: 'accepted', submission_datetime: isoTimestamp(now), submission_date: day, processing_date },
      relationships: { claim: { data: [ref(claim)] }, claim_reversal: { data: [ref(reversal)] } },
    });
    this.reversals.update(reversal.id, undefined, (r) => ({
      ...r,
      relationships: { ...r.relationships, claim_reversal_submission: { data: [ref(submission)] } },
    }));
    this.#d.scheduler.schedule(
      REVERSAL_JOB,
      schemeStepAt(processing_date),
      { reversal_submission_id: submission.id },
      `${REVERSAL_JOB}:${submission.id}`,
      submission.organisation_id,
    );
    return submission;
  }

  get(claimId: string, reversalId: string, organisationId: string): ClaimReversal {
    return this.reversals.getChild(reversalId, organisationId, { claim: claimId });
  }

  getSubmission(
    claimId: string,
    reversalId: string,
    submissionId: string,
    organisationId: string,
  ): ClaimReversalSubmission {
    return this.submissions.getChild(submissionId, organisationId, { claim: claimId, claim_reversal: reversalId });
  }

  reversalOf(claimId: string): ClaimReversal | undefined {
    return this.reversals.rows.first('claim', claimId);
  }

  submissionOfReversal(reversalId: string): ClaimReversalSubmission | undefined {
    return this.submissions.rows.first('reversal', reversalId);
  }

  /** A claim is reversed once its reversal was submitted: it is then never settled. */
  isReversed(claimId: string): boolean {
    const r = this.reversalOf(claimId);
    return r !== undefined && this.submissionOfReversal(r.id) !== undefined;
  }

  /**
   * The window: from processing (sequence number assigned) up to and including working day D0+11,
   * the whole London date (the 22:00 cut-off does not close it); refused from 00:00 London after.
   */
  #assertReversible(claim: Claim): ClaimSubmission & { attributes: { sequence_number: string } } {
    const s = this.#d.submissionOf(claim.id);
    if (!s) throw invalid(`claim ${claim.id} has not been submitted; only a submitted claim can be reversed`);
    const a = s.attributes;
    if (FAILED_CLAIM_SUBMISSION_STATUSES.includes(a.status)) {
      throw invalid(
        `claim ${claim.id} cannot be reversed: its submission is ${a.status} (${a.status_reason ?? 'no reason given'}), so it is never settled`,
      );
    }
    if (a.sequence_number === undefined) {
      throw invalid(
        `claim ${claim.id} cannot be reversed yet: its submission is processed on ${a.processing_date} (working day ${PROCESSING_DAY} after submission day ${a.submission_date}), when the sequence number to quote is assigned; reversals are accepted from then until the end of ${a.reversal_deadline} (working day D0+${LAST_REVERSAL_DAY}, London time)`,
      );
    }
    const today = this.#d.dates.london(this.reversals.clock.now()).date;
    if (today > a.reversal_deadline) {
      throw invalid(
        `claim ${claim.id} can no longer be reversed: the reversal window closed at the end of ${a.reversal_deadline} (working day D0+${LAST_REVERSAL_DAY}, submission day D0 ${a.submission_date})`,
      );
    }
    return s as ClaimSubmission & { attributes: { sequence_number: string } };
  }
}
