// The life of claim submissions on the scheme clock. Validation is one job per submission (it runs
// at acceptance); the rest is batched per (organisation, D0): one release, processing, delivery and
// settlement job per batch, whatever the number of claims. Dates and London times: docs/claims.md.
import type { Scheduler } from '../../clock/scheduler.ts';
import type { Store } from '../../store/store.ts';
import { formatPence } from '../payments/money.ts';
import type { Payments } from '../payments/payments.ts';
import type { Repository } from '../repository.ts';
import { ref, relatedId } from '../resource.ts';
import type { ClaimCalendar } from './claim-calendar.ts';
import {
  CLAIM_SUBMISSION_STATUSES,
  type ClaimAttributes,
  type ClaimSubmission,
  type ClaimSubmissionAttributes,
  type ClaimSubmissionStatus,
} from './claim-resources.ts';
import { claimPence } from './claim-rules.ts';
import { contraPayment } from './contra.ts';
import { DDIC_CLAIM_SUBMISSION_REPORT, type ReportArrivals } from './report-arrivals.ts';

export const JOB = {
  validate: 'claims.validate',
  release: 'claims.release',
  process: 'claims.process',
  deliver: 'claims.deliver',
  settle: 'claims.settle',
} as const;

interface BatchPayload {
  organisation_id: string;
  submission_date: string;
}

export interface ClaimTimelineDeps {
  store: Store;
  scheduler: Scheduler;
  dates: ClaimCalendar;
  claims: Repository<ClaimAttributes>;
  submissions: Repository<ClaimSubmissionAttributes>;
  payments: Payments;
  reports: ReportArrivals;
  /** Whether the claim has a submitted reversal (then it is never settled). */
  isReversed(claimId: string): boolean;
}

const SEQUENCE_META = 'claims.sequence_number';
const CONTRA_META = 'claims.contra_number';
const rank = (s: ClaimSubmissionStatus) => CLAIM_SUBMISSION_STATUSES.indexOf(s);
export const batchKey = (organisationId: string, d0: string) => `${organisationId}|${d0}`;

export class ClaimTimeline {
  readonly #d: ClaimTimelineDeps;

  constructor(deps: ClaimTimelineDeps) {
    this.#d = deps;
    deps.submissions.rows.defineIndex('batch', (s) => batchKey(s.organisation_id, s.attributes.submission_date));
    const { scheduler } = deps;
    scheduler.handle<{ submission_id: string }>(JOB.validate, (job) => {
      const s = deps.submissions.find(job.payload.submission_id);
      if (s) this.#moveTo(s, 'validation_passed');
    });
    scheduler.handle<BatchPayload>(JOB.release, (job) => {
      for (const s of this.#batch(job.payload)) this.#moveTo(s, 'released_to_gateway');
    });
    scheduler.handle<BatchPayload>(JOB.process, (job) => this.#process(job.payload));
    scheduler.handle<BatchPayload>(JOB.deliver, (job) => {
      for (const s of this.#batch(job.payload)) this.#moveTo(s, 'delivery_confirmed');
    });
    scheduler.handle<BatchPayload>(JOB.settle, (job) => this.#settle(job.payload));
  }

  /** Plans the steps of a newly accepted submission (batch jobs are shared, scheduled once). */
  plan(s: ClaimSubmission): void {
    const { scheduler } = this.#d;
    const a = s.attributes;
    const batch: BatchPayload = { organisation_id: s.organisation_id, submission_date: a.submission_date };
    const key = batchKey(s.organisation_id, a.submission_date);
    const at = this.#d.dates.instants(a.submission_date);
    // Validation at acceptance, but not before 00:00 London of D0 (a weekend submission waits).
    const accepted = new Date(a.submission_datetime);
    const validation = accepted.getTime() > at.validationFrom.getTime() ? accepted : at.validationFrom;
    scheduler.schedule(JOB.validate, validation, { submission_id: s.id }, `${JOB.validate}:${s.id}`, s.organisation_id);
    scheduler.schedule(JOB.release, at.release, batch, `${JOB.release}:${key}`, s.organisation_id);
    scheduler.schedule(JOB.process, at.process, batch, `${JOB.process}:${key}`, s.organisation_id);
    scheduler.schedule(JOB.deliver, at.deliver, batch, `${JOB.deliver}:${key}`, s.organisation_id);
    scheduler.schedule(JOB.settle, at.settle, batch, `${JOB.settle}:${key}`, s.organisation_id);
  }

  #batch(b: BatchPayload): ClaimSubmission[] {
    return this.#d.submissions.rows.lookup('batch', batchKey(b.organisation_id, b.submission_date));
  }

  /**
   * Moves a submission forward to `target` through every status in between, one update (version,
   * modified_on, `updated` event) per status. Never moves backwards. `last` changes the final update.
   */
  #moveTo(
    s: ClaimSubmission,
    target: ClaimSubmissionStatus,
    last?: (s: ClaimSubmission) => ClaimSubmission,
  ): ClaimSubmission {
    let current = s;
    for (let i = rank(current.attributes.status) + 1; i <= rank(target); i++) {
      const status = CLAIM_SUBMISSION_STATUSES[i]!;
      current = this.#d.submissions.update(current.id, undefined, (r) => {
        const next = { ...r, attributes: { ...r.attributes, status } };
        return i === rank(target) && last ? last(next) : next;
      });
    }
    return current;
  }

  /** D0+1: sequence numbers, queued_for_delivery, and the DDIC claim submission report. */
  #process(b: BatchPayload): void {
    const rows: Array<Record<string, unknown>> = [];
    let processingDate: string | undefined;
    for (const s of this.#batch(b)) {
      if (rank(s.attributes.status) >= rank('queued_for_delivery')) continue;
      const sequence_number = s.attributes.sequence_number ?? this.#nextNumber(SEQUENCE_META, 12);
      const done = this.#moveTo(s, 'queued_for_delivery', (r) => ({
        ...r,
        attributes: { ...r.attributes, sequence_number },
      }));
      processingDate = done.attributes.processing_date;
      const claim = this.#d.claims.get(relatedId(done, 'claim')!);
      // The fields of the DDIC claim submission report (src/sim/reports/kind-bacs-ddic.ts).
      const a = claim.attributes;
      rows.push({
        Reference: a.reference,
        SequenceNumber: sequence_number,
        OriginatorSUN: a.original_instruction.clearing_id,
        SUReference: a.original_instruction.reference,
        ReasonCode: a.reason_code,
        Amount: formatPence(claimPence(a)),
        NumberOfClaims: a.number_of_claims,
        ClearingId: a.clearing_id,
        PayerName: a.debtor_party.account_name,
        PayerSortCode: a.debtor_party.bank_id,
        PayerAccountNumber: a.debtor_party.account_number,
        DisputedTransactions: a.disputed_transactions,
        SettlementDate: done.attributes.settlement_date,
        ClaimId: claim.id,
        ClaimSubmissionId: done.id,
      });
    }
    if (rows.length === 0) return;
    this.#d.reports.arrive({
      organisation_id: b.organisation_id,
      report_type: DDIC_CLAIM_SUBMISSION_REPORT,
      ...(processingDate ? { processing_date: processingDate } : {}),
      rows,
    });
  }

  /** D0+14: every claim of the batch not reversed is settled by one cumulative contra. */
  #settle(b: BatchPayload): void {
    const settling: Array<{
      submission: ClaimSubmission;
      claim: { id: string; type: string; attributes: ClaimAttributes };
    }> = [];
    for (const s of this.#batch(b)) {
      const claimId = relatedId(s, 'claim')!;
      if (s.attributes.status === 'settled' || this.#d.isReversed(claimId)) continue;
      settling.push({ submission: s, claim: this.#d.claims.get(claimId) });
    }
    if (settling.length === 0) return;
    const number = this.#nextNumber(CONTRA_META, 8);
    const { payment } = this.#d.payments.admit(
      contraPayment({
        organisation_id: b.organisation_id,
        submission_date: b.submission_date,
        settlement_date: settling[0]!.submission.attributes.settlement_date,
        contra_number: number,
        claims: settling.map((x) => x.claim),
      }),
    );
    for (const { submission } of settling) {
      this.#moveTo(submission, 'settled', (r) => ({
        ...r,
        relationships: { ...r.relationships, payment: { data: [ref(payment)] } },
      }));
    }
  }

  /** The next number of a persisted counter, zero-padded to `width` digits. */
  #nextNumber(meta: string, width: number): string {
    const next = (this.#d.store.getMeta<number>(meta) ?? 0) + 1;
    this.#d.store.setMeta(meta, next);
    return String(next).padStart(width, '0');
  }
}
