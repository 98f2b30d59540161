// One place builds a simulated world's domain from its options, so the runtime, the tests and the
// harness get the same services wired the same way.
import type { HolidayTable } from '../clock/bank-holidays.ts';
import { BacsCalendar, type CalendarOverrides } from '../clock/calendar.ts';
import { type Clock, systemClock } from '../clock/clock.ts';
import { type Job, Scheduler } from '../clock/scheduler.ts';
import type { Within } from '../clock/scheduler-types.ts';
import { ClockError, type ClockState, SchemeClock } from '../clock/scheme-clock.ts';
import { ISSUED_SECRETS_META } from '../store/issued-secrets.ts';
import type { Store } from '../store/store.ts';
import { AccountOpening } from './account-opening.ts';
import { type AccountRegistry, accountRegistry, accountsOptions } from './account-registry.ts';
import { Accounts } from './accounts.ts';
import { Claims } from './claims/claims.ts';
import { NameMatcher } from './cop/match.ts';
import { NameVerification } from './cop/name-verification.ts';
import { NameVerificationRequests } from './cop/name-verification-requests.ts';
import { registerNameVerificationScenarios } from './cop/name-verification-scenarios.ts';
import type { Participant } from './cop/participant.ts';
import { ParticipantSigningKeys, SIGNING_KEYS_META } from './cop/participant-signing-keys.ts';
import { Participants } from './cop/participants.ts';
import type { MatchThresholds } from './cop/thresholds.ts';
import { EventBus } from './events.ts';
import { LongWork } from './long-work.ts';
import { type Mode, resolveMode } from './mode.ts';
import { AttachedListeners } from './notifications/attached-listeners.ts';
import { registerNotificationScenarios } from './notifications/notification-scenarios.ts';
import { NOTIFICATION_KEYS_META, NotificationSigningKeys } from './notifications/notification-signing-keys.ts';
import { notifyOnChanges } from './notifications/notifier.ts';
import { Outbox } from './notifications/outbox.ts';
import type { DeliveryRetention } from './notifications/outbox-retention.ts';
import type { RetrySchedule } from './notifications/retry-schedule.ts';
import { SUBSCRIPTION_TYPE, Subscriptions } from './notifications/subscriptions.ts';
import {
  DEPENDENT_COLLECTIONS,
  dropOrganisation,
  dropRowsInSlices,
  ORGANISATION_COLLECTIONS,
  type OrganisationResetCounts,
} from './organisation-reset.ts';
import { type Organisation, Organisations } from './organisations.ts';
import { Payments } from './payments/payments.ts';
import type { CatalogueEntry } from './reports/catalogue.ts';
import { registerReportScenarios } from './reports/report-scenarios.ts';
import { Reports } from './reports/reports.ts';
import type { ServiceUser } from './reports/service-users.ts';
import { ResourcePaths } from './resource-paths.ts';
import { Scenarios } from './scenarios/scenarios.ts';
import { type UserSource, Users } from './security/users.ts';

const runNow: Within = (work) => work();

export interface SimulatorOptions {
  store: Store;
  /** How the simulator runs (default Form3's rules: resolveMode()). */
  mode?: Mode;
  organisations: Organisation[];
  /** Name-verification participants (fixtures/participants.json). */
  participants?: Participant[];
  /** Initial clock state when the store has none (a restart keeps the stored one). */
  clock?: ClockState;
  calendarOverrides?: CalendarOverrides;
  /** Bank holidays by year (fixtures/calendar/bank-holidays.json); years it lacks come from date-holidays. */
  holidayTable?: HolidayTable;
  /** Wall time, for what must not follow the scheme clock. */
  wall?: Clock;
  /** When failed notification deliveries are retried (wall time); default ≈ 0 s … hourly to 24 h. */
  retrySchedule?: RetrySchedule;
  /** Least wall time between two redeliveries of one delivery (default 10 s). */
  redeliveryIntervalMs?: number;
  /** What is kept of finished deliveries and their attempts (default 7 days, at most 10,000). */
  deliveryRetention?: DeliveryRetention;
  /** The report catalogue (fixtures/reports/catalogue.json, checked by validateCatalogue). */
  reportCatalogue: CatalogueEntry[];
  /** Who reports are addressed to (fixtures/reports/service-users.json); others get derived values. */
  reportServiceUsers?: ServiceUser[];
  /** Days of scheme time a report is kept (default 366; 0 keeps all): report-retention.ts. */
  reportRetentionDays?: number;
  /** Seed the daily report arrivals at start-up (default true). */
  scheduledReports?: boolean;
  /**
   * The name matcher's thresholds over DEFAULT_THRESHOLDS (src/sim/cop/thresholds.ts), this
   * simulator's own; a field out of range or unknown throws an Error naming it.
   */
  matchThresholds?: Partial<MatchThresholds>;
  /** The clients of the world, each one of Form3's security users of its organisation (none when omitted). */
  users?: readonly UserSource[];
}

/**
 * The composition root of the domain: one store, one scheme clock, one scheduler, one event bus,
 * and the services of each flow built on them. Knows nothing of HTTP.
 */
export class Simulator {
  readonly store: Store;
  readonly wall: Clock;
  readonly clock: SchemeClock;
  readonly calendar: BacsCalendar;
  readonly scheduler: Scheduler;
  readonly events = new EventBus();
  /** Advances and resets, which run in slices; change requests wait for them (long-work.ts). */
  readonly longWork = new LongWork();
  /** Where each resource type is addressed; each repository registers its own. */
  readonly paths = new ResourcePaths();
  readonly organisations: Organisations;
  readonly accounts: Accounts;
  /** The keys notifications are signed with (Form3's scheme), kept across restarts and resets. */
  readonly notificationKeys: NotificationSigningKeys;
  /** How the simulator runs, resolved once at start-up. */
  readonly mode: Mode;
  /** Form3's account-creation rules over the registry (the Form3 account registry applies them). */
  readonly accountOpening: AccountOpening;
  /** The registry under the mode's rules (Form3's, or the fake account API's): what the API asks. */
  readonly accountRegistry: AccountRegistry;
  readonly payments: Payments;
  readonly claims: Claims;
  readonly #startClock: () => ClockState;
  readonly #resetHooks: Array<(organisationId?: string) => void> = [];
  readonly subscriptions: Subscriptions;
  /** Subscriptions a live listener holds (scheme-sim listen): a reset keeps them. */
  readonly listeners = new AttachedListeners();
  readonly outbox: Outbox;
  readonly participants: Participants;
  readonly nameVerification: NameVerification;
  /** Form3's name verification request API: the requester's side, answered by the participants. */
  readonly nameVerificationRequests: NameVerificationRequests;
  /** The participants' signing keys; `signingKeys.load()` (the runtime calls it) loads or generates them. */
  readonly signingKeys: ParticipantSigningKeys;
  readonly reports: Reports;
  /** Unhappy paths played on purpose (docs/scenarios.md); each flow registers its own. */
  readonly scenarios: Scenarios;
  /** Form3's security users: the world's clients, one user each (decision 030). */
  readonly users: Users;

  constructor(options: SimulatorOptions) {
    // First, so thresholds out of range refuse the simulator before anything is built.
    const matcher = new NameMatcher(options.matchThresholds);
    this.store = options.store;
    this.mode = options.mode ?? resolveMode();
    this.wall = options.wall ?? systemClock;
    // The clock a reset returns to: the configured start (again from the start instant), or
    // running from the wall time of the reset when none was configured (the npm start default).
    const configured = options.clock;
    this.#startClock = () =>
      configured
        ? { ...configured, wall_ms: this.wall.now().getTime() }
        : SchemeClock.runningFrom(this.wall.now(), 1, this.wall);
    this.organisations = new Organisations(options.organisations);
    this.users = new Users(options.users);
    this.calendar = new BacsCalendar(options.calendarOverrides, options.holidayTable);
    this.clock = new SchemeClock({
      initial: this.#startClock(),
      wall: this.wall,
      persistence: {
        load: () => this.store.getMeta<ClockState>('clock'),
        save: (state) => this.store.setMeta('clock', state),
      },
    });
    // Each job is one unit of the store: a handler that throws leaves nothing half done. A long
    // advance commits at each slice boundary, so no write grows with the length of the advance.
    this.scheduler = new Scheduler(this.clock, this.store.collection<Job>('scheduler_jobs'), {
      atomically: (fn) => this.store.atomically(fn),
      commit: () => this.store.commit(),
      overlapCommits: this.store.commitsOverlap,
    });
    // A request's unit that scheduled or cancelled jobs and then failed: the queue re-reads the job
    // store. (Inside an advance the scheduler does that itself, after the failed job.)
    this.store.onRollback((touched) => {
      if (touched.has('scheduler_jobs') && !this.scheduler.advancing) this.scheduler.reload();
    });
    const ctx = { store: this.store, clock: this.clock, events: this.events, paths: this.paths };
    this.accounts = new Accounts(ctx, accountsOptions(this.mode.accounts));
    this.scenarios = new Scenarios(ctx);
    this.reports = new Reports(
      { ...ctx, calendar: this.calendar, scheduler: this.scheduler, organisations: this.organisations },
      options.reportCatalogue,
      {
        serviceUsers: options.reportServiceUsers ?? [],
        ...(options.reportRetentionDays !== undefined ? { retentionDays: options.reportRetentionDays } : {}),
      },
    );
    registerReportScenarios(this.scenarios, this.reports);
    if (options.scheduledReports !== false) this.reports.seedSchedule();
    // A reset drops every record and job: the report schedule is seeded again, the file cache emptied.
    this.onReset(() => this.reports.reset(options.scheduledReports !== false));
    this.participants = new Participants(options.participants ?? []);
    this.nameVerification = new NameVerification(this.participants, this.accounts, matcher);
    this.nameVerificationRequests = new NameVerificationRequests(ctx, {
      scheduler: this.scheduler,
      participants: this.participants,
      organisations: this.organisations,
      scenarios: this.scenarios,
    });
    registerNameVerificationScenarios(this.scenarios, this.participants);
    this.accountOpening = new AccountOpening(
      this.accounts,
      this.organisations,
      (organisationId) => this.participants.ofOrganisation(organisationId) !== undefined,
    );
    this.accountRegistry = accountRegistry(this.mode.accounts, this.accounts, this.accountOpening);
    this.signingKeys = new ParticipantSigningKeys(this.store, this.participants.all());
    this.subscriptions = new Subscriptions(ctx);
    this.notificationKeys = new NotificationSigningKeys(this.store, this.clock);
    this.outbox = new Outbox(this.store, {
      wall: this.wall,
      scheme: this.clock,
      subscriptionOf: (id) => this.subscriptions.find(id),
      ...(options.retrySchedule ? { schedule: options.retrySchedule } : {}),
      ...(options.redeliveryIntervalMs !== undefined ? { redeliveryIntervalMs: options.redeliveryIntervalMs } : {}),
      ...(options.deliveryRetention ? { retention: options.deliveryRetention } : {}),
    });
    registerNotificationScenarios(this.scenarios, this.outbox, this.subscriptions);
    notifyOnChanges({
      events: this.events,
      subscriptions: this.subscriptions,
      outbox: this.outbox,
      clock: this.clock,
      paths: this.paths,
    });
    this.payments = new Payments(ctx);
    this.claims = new Claims(ctx, {
      scheduler: this.scheduler,
      calendar: this.calendar,
      payments: this.payments,
      reports: this.reports,
      scenarios: this.scenarios,
    });
  }

  /**
   * Registers a hook run after every reset, for a service that keeps state outside the store
   * (caches, timers, in-memory queues) and must drop it. Hooks run synchronously, in order.
   */
  /** `fn` runs after a reset: with the organisation's id after `resetOrganisation`, without after `reset`. */
  onReset(fn: (organisationId?: string) => void): void {
    this.#resetHooks.push(fn);
  }

  /**
   * Back to the fixture state for one organisation: its records, deliveries, reports and jobs are
   * dropped and the reset hooks run for it (seed accounts, report schedule). Other organisations,
   * the clock and the meta are untouched: on a double shared by a team, one test run cannot erase
   * another's data. Runs in slices (each one unit of the store, committed) that give the event
   * loop back; the caller runs it as long work (`longWork.exclusive`) and commits the last slice.
   * `within` runs the hooks (what they create is made by the caller resetting: src/sim/actor.ts).
   */
  resetOrganisation(organisationId: string, within: Within = runNow): Promise<OrganisationResetCounts> {
    if (this.scheduler.advancing) throw new ClockError('cannot reset while an advance is running');
    return dropOrganisation(this.store, this.scheduler, this.paths.types(), organisationId, {
      boundary: () => this.#sliceBoundary(),
      keep: (id) => this.listeners.holds(id),
      finish: () =>
        within(() => {
          for (const fn of this.#resetHooks) fn(organisationId);
        }),
    });
  }

  /**
   * Back to an empty simulator: every record and pending job is dropped, all meta but the token
   * signing key (tokens already issued stay valid), the participants' and the notifications'
   * signing keys (a requester may hold their JWKS, a receiver the public key) and the ledger of
   * those secrets, and the scheme clock returns to its start state, backwards included.
   * The records go in slices that give the event loop back (as `resetOrganisation`); then the
   * store's `clear` (an in-memory sweep of what is left: meta, collections nobody opened) and the
   * clock, queue and hooks in one synchronous step. The caller runs it as long work and commits;
   * `within` runs the hooks, as for `resetOrganisation`.
   */
  async reset(within: Within = runNow): Promise<void> {
    if (this.scheduler.advancing) throw new ClockError('cannot reset while an advance is running');
    const names = [...this.paths.types(), ...ORGANISATION_COLLECTIONS, ...DEPENDENT_COLLECTIONS, 'scheduler_jobs'];
    const held = (row: { id: string }) => this.listeners.holds(row.id);
    await dropRowsInSlices(this.store, names, (row) => !held(row), { boundary: () => this.#sliceBoundary() });
    // A live listener's subscriptions (and their secrets) outlive the reset: put back after the sweep.
    const kept = [SUBSCRIPTION_TYPE, 'subscription_secrets'].map(
      (name) => [name, [...this.store.collection<{ id: string }>(name).values()].filter(held)] as const,
    );
    this.store.clear({ keepMeta: ['auth_key', SIGNING_KEYS_META, NOTIFICATION_KEYS_META, ISSUED_SECRETS_META] });
    this.store.atomically(() => {
      for (const [name, rows] of kept) for (const row of rows) this.store.collection<{ id: string }>(name).put(row);
    });
    this.clock.reset(this.#startClock());
    this.scheduler.reload();
    within(() => {
      for (const fn of this.#resetHooks) fn(undefined);
    });
  }

  /** Between two slices of long work: what they did is made durable, and the event loop gets a turn. */
  async #sliceBoundary(): Promise<void> {
    await this.store.commit();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
