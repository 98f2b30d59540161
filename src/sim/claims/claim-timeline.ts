// The life of claim submissions on the scheme clock. Validation is one job per submission (it runs
// at acceptance); the rest is batched per (organisation, D0): one release, processing, delivery and
// settlement job per batch, whatever the number of claims. Dates and London times: docs/claims.md.
import type { Scheduler } from '../../clock/scheduler.ts';
import type { Store } from '../../store/store.ts';
import { formatPence } from '../payments/money.ts';
import type { Payments } from '../payments/payments.ts';
import type { Repository } from '../repository.ts';
import { relatedId } from '../resource.ts';
import { namingScenario, type Scenario, type Scenarios } from '../scenarios/scenarios.ts';
import type { ClaimCalendar } from './claim-calendar.ts';
import {
  CLAIM_SUBMISSION_PATH,
  type ClaimAttributes,
  type ClaimSubmission,
  type ClaimSubmissionAttributes,
  type ClaimSubmissionStatus,
} from './claim-resources.ts';
import { claimPence } from './claim-rules.ts';
import { ClaimSettlement, SETTLE_LATE_JOB } from './claim-settlement.ts';
import { validationOutcome } from './claim-validation.ts';
import { DDIC_CLAIM_SUBMISSION_REPORT, type ReportArrivals } from './report-arrivals.ts';

export const JOB = {
  validate: 'claims.validate',
  release: 'claims.release',
  process: 'claims.process',
  deliver: 'claims.deliver',
  settle: 'claims.settle',
  settleLate: SETTLE_LATE_JOB,
} as const;

export interface BatchPayload {
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
  scenarios: Scenarios;
  /** Whether the claim has a submitted reversal (then it is never settled). */
  isReversed(claimId: string): boolean;
}

const SEQUENCE_META = 'claims.sequence_number';
const step = (s: ClaimSubmissionStatus) => (CLAIM_SUBMISSION_PATH as readonly string[]).indexOf(s);
export const batchKey = (organisationId: string, d0: string) => `${organisationId}|${d0}`;

export class ClaimTimeline {
  readonly #d: ClaimTimelineDeps;
  readonly #settlement: ClaimSettlement;

  constructor(deps: ClaimTimelineDeps) {
    this.#d = deps;
    deps.submissions.rows.defineIndex('batch', (s) => batchKey(s.organisation_id, s.attributes.submission_date));
    this.#settlement = new ClaimSettlement({ ...deps, batch: (b) => this.#batch(b), nextNumber: this.#nextNumber });
    const { scheduler } = deps;
    scheduler.handle<{ submission_id: string }>(JOB.validate, (job) => {
      const s = deps.submissions.find(job.payload.submission_id);
      if (s) this.#validate(s);
    });
    scheduler.handle<BatchPayload>(JOB.release, (job) => {
      for (const s of this.#batch(job.payload)) this.#moveTo(s, 'released_to_gateway');
    });
    scheduler.handle<BatchPayload>(JOB.process, (job) => this.#process(job.payload));
    scheduler.handle<BatchPayload>(JOB.deliver, (job) => {
      for (const s of this.#batch(job.payload)) this.#deliver(s);
    });
    scheduler.handle<BatchPayload>(JOB.settle, (job) => this.#settlement.settleBatch(job.payload));
    scheduler.handle<{ submission_id: string }>(JOB.settleLate, (job) =>
      this.#settlement.settleLate(job.payload.submission_id),
    );
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

  /** The validation step: the scheme's rules, then any scenario or magic amount (claim-validation.ts). */
  #validate(s: ClaimSubmission): void {
    if (s.attributes.status !== 'validation_pending') return;
    const claim = this.#d.claims.get(relatedId(s, 'claim')!);
    const today = this.#d.dates.london(this.#d.claims.clock.now()).date;
    const outcome = validationOutcome(claim, s, today, this.#d.scenarios);
    if (outcome.passed) {
      this.#moveTo(s, 'validation_passed');
      return;
    }
    this.#fail(s, 'validation_failed', outcome.reason, outcome.scenario);
  }

  /** The submission stopped by the scheme: one update with the status and its reason. */
  #fail(s: ClaimSubmission, status: ClaimSubmissionStatus, reason: string, scenario?: Scenario): void {
    this.#d.submissions.update(s.id, undefined, (r) => {
      const next = { ...r, attributes: { ...r.attributes, status, status_reason: reason } };
      return scenario ? namingScenario(next, scenario) : next;
    });
    if (scenario) this.#d.scenarios.applied(scenario, `submission ${s.id} ${status}: ${reason}`);
  }

  /**
   * Moves a validated submission forward to `target` through every status in between, one update
   * (version, modified_on, `updated` event) per status. Never moves backwards, never moves one that
   * is not validated yet or that failed. `last` changes the final update.
   */
  #moveTo(
    s: ClaimSubmission,
    target: ClaimSubmissionStatus,
    last?: (s: ClaimSubmission) => ClaimSubmission,
  ): ClaimSubmission {
    const from = step(s.attributes.status);
    if (from < 0 || (from === 0 && target !== 'validation_passed')) return s;
    let current = s;
    for (let i = from + 1; i <= step(target); i++) {
      const status = CLAIM_SUBMISSION_PATH[i]!;
      current = this.#d.submissions.update(current.id, undefined, (r) => {
        const next = { ...r, attributes: { ...r.attributes, status } };
        return i === step(target) && last ? last(next) : next;
      });
    }
    return current;
  }

  /** D0+2: delivered to the originator, unless a scenario fails the delivery. */
  #deliver(s: ClaimSubmission): void {
    if (step(s.attributes.status) < step('validation_passed')) return;
    const scenario = this.#d.scenarios.pendingFor(s.id, 'claim_submission.delivery_failed');
    if (!scenario || s.attributes.status === 'delivery_confirmed') {
      this.#moveTo(s, 'delivery_confirmed');
      return;
    }
    const queued = this.#moveTo(s, 'queued_for_delivery');
    const reason = String(scenario.attributes.parameters.reason ?? 'the originator did not receive the claim');
    this.#fail(queued, 'delivery_failed', reason, scenario);
  }

  /** D0+1: sequence numbers, queued_for_delivery, and the DDIC claim submission report. */
  #process(b: BatchPayload): void {
    const rows: Array<Record<string, unknown>> = [];
    let processingDate: string | undefined;
    for (const s of this.#batch(b)) {
      const at = step(s.attributes.status);
      if (at < step('validation_passed') || at >= step('queued_for_delivery')) continue;
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

  /** The next number of a persisted counter, zero-padded to `width` digits. */
  readonly #nextNumber = (meta: string, width: number): string => {
    const next = (this.#d.store.getMeta<number>(meta) ?? 0) + 1;
    this.#d.store.setMeta(meta, next);
    return String(next).padStart(width, '0');
  };
}
