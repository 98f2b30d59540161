// The requester side of Confirmation of Payee in the domain: a member's request, routed to the payee's
// bank and answered, recorded on both sides so each organisation's subscribers hear of it.
import type { Scheduler } from '../../clock/scheduler.ts';
import { conflict } from '../errors.ts';
import { filterPredicate } from '../list-filter.ts';
import { newId } from '../new-id.ts';
import type { Organisations } from '../organisations.ts';
import { Repository, type RepositoryContext } from '../repository.ts';
import { type Relationship, type Resource, relatedId } from '../resource.ts';
import type { Scenarios } from '../scenarios/scenarios.ts';
import { admissionOf, type ResponderOutcome, submissionOf, unknownBankSubmission } from './answer-attributes.ts';
import { NAME_VERIFICATION_FILTER_FIELDS } from './name-verification-filter.ts';
import {
  type AdmissionAttributes,
  type AdmissionRecord,
  NAME_VERIFICATION_ADMISSION_TYPE,
  NAME_VERIFICATION_SUBMISSION_TYPE,
  NAME_VERIFICATION_TYPE,
  type NameVerificationAttributes,
  type NameVerificationFilter,
  type NameVerificationRecord,
  type SubmissionAttributes,
  type SubmissionRecord,
} from './name-verification-records.ts';
import { pendingResponderScenario, RESPONDER_FAILED, RESPONDER_SLOW } from './name-verification-scenarios.ts';
import type { Participant } from './participant.ts';
import type { Participants } from './participants.ts';
import { type PayeeRoute, routePayee, verificationRequestOf } from './payee-route.ts';

export const NAME_VERIFICATIONS_PATH = '/v1/organisation/nameverifications';
const DELIVERY_JOB = 'name_verifications.deliver';
const DUPLICATE = 'Name verification cannot be created as it violates a duplicate constraint';

export interface NewNameVerification {
  id: string;
  organisation_id: string;
  attributes: NameVerificationAttributes;
}

/** Where a new request goes, and whether its responder is to be asked (a failing one is not). */
export interface NameVerificationPlan {
  route: PayeeRoute;
  ask: boolean;
}

/** What is written when the answer arrives: now, or later on the scheme clock (a slow responder). */
interface Delivery {
  name_verification_id: string;
  organisation_id: string;
  submission: SubmissionAttributes;
  /** The payee's bank's own record of the request, when a participant received it. */
  responder?: { organisation_id: string; attributes: NameVerificationAttributes; admission: AdmissionAttributes };
  scenario_ids: string[];
}

export interface NameVerificationRequestsDeps {
  scheduler: Scheduler;
  participants: Participants;
  organisations: Organisations;
  scenarios: Scenarios;
}

/**
 * Form3's name verification request API: a member asks whether a name matches a payee's account
 * (`name_verifications`); the simulator routes it to the participant serving the sort code, whose
 * endpoint answers (the caller runs that exchange: `plan`, ask, `record`). The answer is written
 * as the requester's submission and, at the payee's bank, as an inbound name verification with its
 * admission; each record emits its event, so subscribers of either side are notified.
 */
export class NameVerificationRequests {
  readonly requests: Repository<NameVerificationAttributes>;
  readonly submissions: Repository<SubmissionAttributes>;
  readonly admissions: Repository<AdmissionAttributes>;
  readonly #ctx: RepositoryContext;
  readonly #deps: NameVerificationRequestsDeps;

  constructor(ctx: RepositoryContext, deps: NameVerificationRequestsDeps) {
    this.#ctx = ctx;
    this.#deps = deps;
    this.requests = new Repository(ctx, NAME_VERIFICATION_TYPE, {
      path: (r) => `${NAME_VERIFICATIONS_PATH}/${r.id}`,
      duplicate: DUPLICATE,
    });
    const child = (segment: string) => (r: Resource<object>) =>
      `${NAME_VERIFICATIONS_PATH}/${relatedId(r, 'name_verification')}/${segment}/${r.id}`;
    this.submissions = new Repository(ctx, NAME_VERIFICATION_SUBMISSION_TYPE, { path: child('submissions') });
    this.admissions = new Repository(ctx, NAME_VERIFICATION_ADMISSION_TYPE, { path: child('admissions') });
    deps.scheduler.handle<Delivery>(DELIVERY_JOB, (job) => this.#deliver(job.payload));
  }

  /**
   * The route of a new request, before anything is stored or sent: 409 for an id already used.
   * A responder with a pending `responder_failed` scenario is not asked.
   */
  plan(input: NewNameVerification): NameVerificationPlan {
    if (this.requests.rows.has(input.id)) throw conflict(DUPLICATE);
    const route = routePayee(this.#deps.participants, input.attributes);
    const failing =
      route.kind === 'participant' &&
      pendingResponderScenario(this.#deps.scenarios, input.organisation_id, RESPONDER_FAILED, route.participant) !==
        undefined;
    return { route, ask: route.kind === 'participant' && !failing };
  }

  /**
   * Stores the request and its answer, as one unit: `outcome` is what the payee's bank answered
   * (when `plan` said to ask). The answer is written at once, or when a slow responder's answer
   * arrives. Returns the request as created.
   */
  record(input: NewNameVerification, plan: NameVerificationPlan, outcome?: ResponderOutcome): NameVerificationRecord {
    return this.#ctx.store.atomically(() => {
      if (this.requests.rows.has(input.id)) throw conflict(DUPLICATE);
      const created = this.requests.create(input);
      const delivery = this.#delivery(created, plan.route, outcome);
      const participant = plan.route.kind === 'participant' ? plan.route.participant : undefined;
      const slow =
        participant &&
        pendingResponderScenario(this.#deps.scenarios, input.organisation_id, RESPONDER_SLOW, participant);
      if (!participant || !slow) {
        this.#deliver(delivery);
        return created;
      }
      const seconds = Number(slow.attributes.parameters.seconds ?? DEFAULT_SLOW_SECONDS);
      const due = new Date(this.#ctx.clock.now().getTime() + seconds * 1000);
      this.#deps.scheduler.schedule(
        DELIVERY_JOB,
        due,
        { ...delivery, scenario_ids: [...delivery.scenario_ids, slow.id] },
        `${DELIVERY_JOB}:${created.id}`,
        created.organisation_id,
      );
      this.#deps.scenarios.applied(
        slow,
        `name verification ${created.id}: the answer of ${participantLabel(participant)} arrives ${seconds} s late, at ${due.toISOString()}`,
      );
      return created;
    });
  }

  get(id: string, organisationId: string | undefined): NameVerificationRecord {
    return this.requests.get(id, organisationId);
  }

  /** The organisation's name verifications (every organisation's when undefined), filtered as Form3's list is. */
  list(organisationId: string | undefined, filter: NameVerificationFilter = {}): NameVerificationRecord[] {
    return this.requests.list(organisationId).filter(filterPredicate(filter, NAME_VERIFICATION_FILTER_FIELDS));
  }

  getAdmission(nameVerificationId: string, id: string, organisationId: string | undefined): AdmissionRecord {
    return this.admissions.getChild(id, organisationId, { name_verification: nameVerificationId });
  }

  getSubmission(nameVerificationId: string, id: string, organisationId: string | undefined): SubmissionRecord {
    return this.submissions.getChild(id, organisationId, { name_verification: nameVerificationId });
  }

  /** What the answer writes, decided now (the responder answered when asked, however late it arrives). */
  #delivery(created: NameVerificationRecord, route: PayeeRoute, outcome: ResponderOutcome | undefined): Delivery {
    const base = { name_verification_id: created.id, organisation_id: created.organisation_id, scenario_ids: [] };
    if (route.kind === 'unknown_bank') return { ...base, submission: unknownBankSubmission(route.sortCode) };
    if (route.kind === 'not_routable')
      return { ...base, submission: { status: 'delivery_failed', status_reason: route.reason } };
    let answered = outcome;
    const scenarioIds: string[] = [];
    if (!answered) {
      // Not asked: a responder_failed scenario was pending for this participant.
      const failing = pendingResponderScenario(
        this.#deps.scenarios,
        created.organisation_id,
        RESPONDER_FAILED,
        route.participant,
      );
      const reason = String(failing?.attributes.parameters.reason ?? DEFAULT_FAILURE);
      answered = { kind: 'failed', reason: `${participantLabel(route.participant)} did not answer: ${reason}` };
      if (failing) {
        scenarioIds.push(failing.id);
        this.#deps.scenarios.applied(failing, `name verification ${created.id}: ${answered.reason}`);
      }
    }
    return {
      ...base,
      submission: submissionOf(answered),
      responder: {
        organisation_id: route.participant.organisation_id,
        attributes: inboundAttributes(created.attributes),
        admission: admissionOf(answered, this.#bankName(created.organisation_id)),
      },
      scenario_ids: scenarioIds,
    };
  }

  /** Writes an answer: the requester's submission, then the responder's inbound request and admission. */
  #deliver(d: Delivery): void {
    const request = this.requests.find(d.name_verification_id, d.organisation_id);
    if (!request) return; // its organisation was reset meanwhile
    const scenarios: Record<string, Relationship> =
      d.scenario_ids.length > 0 ? { scenarios: { data: d.scenario_ids.map((id) => ({ id, type: 'scenarios' })) } } : {};
    const submission = this.submissions.create({
      id: newId(),
      organisation_id: d.organisation_id,
      attributes: d.submission,
      relationships: { name_verification: { data: [bare(request)] }, ...scenarios },
    });
    this.#link(request, 'name_verification_submission', submission);
    if (!d.responder) return;
    const inbound = this.requests.create({
      id: newId(),
      organisation_id: d.responder.organisation_id,
      attributes: d.responder.attributes,
    });
    const admission = this.admissions.create({
      id: newId(),
      organisation_id: d.responder.organisation_id,
      attributes: d.responder.admission,
      relationships: { name_verification: { data: [bare(inbound)] } },
    });
    this.#link(inbound, 'name_verification_admission', admission);
  }

  /**
   * Puts the submission or admission into the request's relationships, whole, as go-form3's model
   * has it (NameVerificationRelationships holds the resources, at most one of each): a change of
   * the request (version + 1, an updated event) that carries the answer to its subscribers.
   */
  #link(
    request: NameVerificationRecord,
    name: 'name_verification_submission' | 'name_verification_admission',
    related: Resource<object>,
  ): void {
    this.requests.update(request.id, undefined, (r) => ({
      ...r,
      relationships: { ...r.relationships, [name]: { data: [withoutBackReference(related)] } },
    }));
  }

  /** The requester's bank as the payee's bank sees it: its participant name, else its organisation's. */
  #bankName(organisationId: string): string {
    return (
      this.#deps.participants.ofOrganisation(organisationId)?.name ??
      this.#deps.organisations.get(organisationId)?.name ??
      organisationId
    );
  }
}

const DEFAULT_SLOW_SECONDS = 10;
const DEFAULT_FAILURE = 'its endpoint did not respond';

function participantLabel(p: Participant): string {
  return `${p.name} (${p.open_banking_id})`;
}

/** A resource as another one's relationship carries it: whole, without its own relationships (no cycles). */
function bare<R extends Resource<object>>(r: R): Omit<R, 'relationships'> {
  const { relationships: _, ...rest } = r;
  return rest;
}

/** A submission or admission as its request carries it: whole, but for its way back to the request. */
function withoutBackReference(r: Resource<object>): Relationship['data'][number] {
  const { name_verification: _, ...others } = r.relationships ?? {};
  const { relationships: __, ...rest } = r;
  return Object.keys(others).length > 0 ? { ...rest, relationships: others } : rest;
}

/**
 * The request as the payee's bank receives it: only what the Open Banking request carries (the
 * account, its classification, the name as one string, the secondary identification), so nothing
 * else of the requester's reaches the responder.
 */
function inboundAttributes(a: NameVerificationAttributes): NameVerificationAttributes {
  const request = verificationRequestOf(a);
  return {
    account_classification: request.accountType === 'Business' ? 'business' : 'personal',
    account_number: a.account_number,
    account_number_code: 'BBAN',
    bank_id: a.bank_id,
    bank_id_code: 'GBDSC',
    name: [request.name],
    ...(request.secondaryIdentification ? { secondary_identification: request.secondaryIdentification } : {}),
    verification_scheme: 'CoP',
  };
}
