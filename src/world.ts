// One simulated world on an open store: the domain, its clients and tokens, the app and the
// background workers. The server's own world (the default sandbox) and every sandbox are made
// here, so a sandbox is the same simulator a whole server is, with its own everything.
import type { Hono } from 'hono';
import { createApp, requestSchemasOf } from './api/app.ts';
import { ClientRegistry, type OAuthClient } from './api/auth/clients.ts';
import { TokenIssuer } from './api/auth/tokens.ts';
import type { AppDeps, AppEnv } from './api/context.ts';
import { RequestJournal } from './api/journal/request-journal.ts';
import type { CorsOrigins } from './api/layers/cors.ts';
import { ResponderSigner } from './api/open-banking/responder-signer.ts';
import type { SandboxDirectory } from './api/sandbox-directory.ts';
import { compileValidators } from './api/schemas/index.ts';
import { STORED_RECORD_SCHEMAS } from './api/stored-records.ts';
import type { Clock } from './clock/clock.ts';
import { SchedulerTimer } from './clock/scheduler-timer.ts';
import type { ClockState } from './clock/scheme-clock.ts';
import type { ClientRequests } from './delivery/client-requests.ts';
import { type DeliveryOptions, DeliveryWorker } from './delivery/delivery-worker.ts';
import { sqsOptionsFromEnv } from './delivery/queue-transport.ts';
import { resolveHostAddresses } from './delivery/resolve-host.ts';
import type { Fixtures } from './fixtures.ts';
import { packageVersion, swaggerUiAssets } from './package-files.ts';
import type { JwsProfile } from './signatures/jws-profile.ts';
import type { SeedAccount } from './sim/accounts.ts';
import type { GivenSigningKey } from './sim/cop/participant.ts';
import type { ParticipantSigningKeys } from './sim/cop/participant-signing-keys.ts';
import type { MatchThresholds } from './sim/cop/thresholds.ts';
import type { Mode } from './sim/mode.ts';
import type { DeliveryRetention } from './sim/notifications/outbox-retention.ts';
import type { RetrySchedule } from './sim/notifications/retry-schedule.ts';
import { type SeedPayment, seedPayments } from './sim/payments/seed-payments.ts';
import { Simulator } from './sim/simulator.ts';
import { noteSecretIssued } from './store/issued-secrets.ts';
import type { Store } from './store/store.ts';

/** The collections a store keeps records in: what a sandbox's record quota counts. */
const STORED_COLLECTIONS = Object.keys(STORED_RECORD_SCHEMAS);

/** Something that runs in the background while the simulator serves (outbox, running clock). */
export interface Worker {
  start(): void;
  stop(): Promise<void>;
}

/** What a world is made with: the runtime's options that a world reads, and its own parts. */
export interface WorldOptions {
  /** `default` for the server's own world, else the sandbox's id. */
  id: string;
  store: Store;
  mode: Mode;
  fixtures: Fixtures;
  clients: OAuthClient[];
  /** The accounts an empty registry (or a reset) gets; none when omitted. */
  seedAccounts?: () => SeedAccount[];
  /** The payments an empty payment list (or a reset) gets, dated from the clock; none when omitted. */
  seedPayments?: () => SeedPayment[];
  /** What every access token of this world starts with (a sandbox's: `sbx_<hex id>.`); none for the default. */
  tokenPrefix?: string;
  /** Where the participants' signing keys come from: given keys, or another world's loaded ones. */
  participantKeys: { given?: Record<string, GivenSigningKey> } | { from: ParticipantSigningKeys };
  clock?: ClockState;
  wall?: Clock;
  tokenTtlSeconds?: number;
  clockTimerMs?: number;
  webhookSecret?: string;
  retrySchedule?: RetrySchedule;
  redeliveryIntervalMs?: number;
  deliveryRetention?: DeliveryRetention;
  delivery?: Omit<DeliveryOptions, 'webhookSecret'>;
  scheduledReports?: boolean;
  jwsProfile?: JwsProfile;
  copSignatureCache?: number;
  resolveHost?: (hostname: string) => Promise<string[]>;
  reportRetentionDays?: number;
  journalSize?: number;
  cors?: CorsOrigins;
  /** The bundled fixtures' development client, named by the dashboard's sign-in. */
  devClientHint?: AppDeps['devClientHint'];
  /** The server's sandboxes, for the sandbox routes every world serves; the default world also routes to them. */
  sandboxes?: SandboxDirectory;
  /** The name matcher's thresholds (checked: src/sim/cop/thresholds.ts matchThresholds); the defaults when omitted. */
  matchThresholds?: MatchThresholds;
  /** Records this world may hold at most (a sandbox's quota); none for the default world. */
  recordQuota?: number;
  /** The requests the server answers (every world's), which background delivery gives way to. */
  clientRequests?: ClientRequests;
}

export interface World {
  readonly id: string;
  readonly sim: Simulator;
  readonly app: Hono<AppEnv>;
  readonly deps: AppDeps;
  readonly clients: ClientRegistry;
  readonly workers: Worker[];
  readonly delivery: DeliveryWorker;
  /** Every record the world's store holds, of every collection. */
  recordCount(): number;
  warm(): Promise<void>;
  start(): void;
  /** Stops the workers and closes the store. */
  close(): Promise<void>;
}

/** Builds a world on an open store. The store stays the caller's to close should this throw. */
export async function assembleWorld(o: WorldOptions): Promise<World> {
  const { store, mode, fixtures } = o;
  let key = store.getMeta<string>('auth_key');
  if (!key) {
    key = TokenIssuer.newKey();
    store.setMeta('auth_key', key);
    noteSecretIssued(store, 'auth_key');
  }
  const sim = new Simulator({
    store,
    mode,
    organisations: fixtures.organisations,
    participants: fixtures.participants,
    calendarOverrides: fixtures.calendarOverrides,
    holidayTable: fixtures.holidayTable,
    reportCatalogue: fixtures.reportCatalogue,
    reportServiceUsers: fixtures.reportServiceUsers,
    ...(o.reportRetentionDays !== undefined ? { reportRetentionDays: o.reportRetentionDays } : {}),
    ...(o.clock ? { clock: o.clock } : {}),
    ...(o.wall ? { wall: o.wall } : {}),
    ...(o.retrySchedule ? { retrySchedule: o.retrySchedule } : {}),
    ...(o.redeliveryIntervalMs !== undefined ? { redeliveryIntervalMs: o.redeliveryIntervalMs } : {}),
    ...(o.deliveryRetention ? { deliveryRetention: o.deliveryRetention } : {}),
    ...(o.matchThresholds ? { matchThresholds: o.matchThresholds } : {}),
    scheduledReports: o.scheduledReports !== false,
    users: o.clients,
  });

  // An empty registry (or an organisation just reset) gets the seed accounts.
  const seedAccounts = (organisationId?: string) => {
    if (!o.seedAccounts) return;
    if (organisationId === undefined && sim.accounts.repo.rows.size > 0) return;
    for (const account of o.seedAccounts()) {
      if (organisationId === undefined || account.organisation_id === organisationId) sim.accounts.create(account);
    }
  };
  // The seed payments, processed on the working days before the clock's start (seed-payments.ts).
  const seedPaymentList = (organisationId?: string) => {
    if (!o.seedPayments) return;
    if (organisationId === undefined && sim.payments.payments.rows.size > 0) return;
    seedPayments(
      { payments: sim.payments, calendar: sim.calendar, now: sim.clock.now() },
      o.seedPayments(),
      organisationId,
    );
  };
  const seed = (organisationId?: string) => {
    seedAccounts(organisationId);
    seedPaymentList(organisationId);
  };
  seed();
  // A reset returns to the fixture state, seed records included (an organisation's reset, its own).
  sim.onReset(seed);

  // A sandbox counts on every create (its record quota): the collections are looked up once, on the
  // first count (a store keeps each collection object for its life), so a count is sizes added up.
  let collections: Array<{ readonly size: number }> | undefined;
  const recordCount = () => {
    collections ??= STORED_COLLECTIONS.map((name) => store.collection(name));
    let count = 0;
    for (let i = 0; i < collections.length; i++) count += collections[i]!.size;
    return count;
  };
  const clients = new ClientRegistry(o.clients);
  const tokens = new TokenIssuer(key, sim.wall, o.tokenTtlSeconds, o.tokenPrefix);
  // Keys load (or are generated) in the background while the rest is built; warm() waits for them.
  if ('from' in o.participantKeys) sim.signingKeys.loadFrom(o.participantKeys.from);
  else sim.signingKeys.load(o.participantKeys.given);
  const signer = new ResponderSigner(sim.signingKeys, sim.wall, o.jwsProfile ?? '3.1.4', o.copSignatureCache);
  const deps: AppDeps = {
    worldId: o.id,
    sim,
    clients,
    tokens,
    mode,
    signer,
    resolveHost: o.resolveHost ?? resolveHostAddresses,
    journal: new RequestJournal(o.journalSize),
    ...(o.cors ? { cors: o.cors } : {}),
    ...(o.devClientHint ? { devClientHint: o.devClientHint } : {}),
    ...(o.sandboxes ? { sandboxes: o.sandboxes } : {}),
    ...(o.recordQuota !== undefined ? { recordQuota: { limit: o.recordQuota, count: recordCount } } : {}),
    docsAssets: swaggerUiAssets(),
    version: packageVersion(),
  };
  const app = createApp(deps);
  await store.commit();

  const delivery = new DeliveryWorker(
    {
      store,
      wall: sim.wall,
      outbox: sim.outbox,
      subscriptions: sim.subscriptions,
      signingKey: () => sim.notificationKeys.current(),
      prepareSigningKey: () => sim.notificationKeys.prepare(),
      ...(o.clientRequests ? { requests: o.clientRequests } : {}),
    },
    {
      ...o.delivery,
      sqs: { ...sqsOptionsFromEnv(), ...o.delivery?.sqs },
      ...(o.webhookSecret ? { webhookSecret: o.webhookSecret } : {}),
    },
  );
  const workers: Worker[] = [delivery];
  // While the scheme clock runs, due jobs run on a timer; what they did is committed after each run.
  // A backlog runs in slices as long work, as an advance does (change requests wait for it).
  workers.push(
    new SchedulerTimer({
      scheduler: sim.scheduler,
      clock: sim.clock,
      commit: () => store.commit(),
      exclusive: (work) => sim.longWork.exclusive('the running clock catching up', work),
      busy: () => sim.longWork.running !== undefined,
      ...(o.clockTimerMs ? { maxWaitMs: o.clockTimerMs } : {}),
    }),
  );
  let started = false;
  let closing: Promise<void> | undefined;
  return {
    id: o.id,
    sim,
    app,
    deps,
    clients,
    workers,
    delivery,
    recordCount,
    async warm() {
      // Key generation runs on the thread pool while this thread compiles.
      await Promise.all([compileValidators(requestSchemasOf(app)), sim.signingKeys.ready()]);
    },
    start() {
      if (started) return;
      started = true;
      for (const w of workers) w.start();
    },
    close() {
      closing ??= (async () => {
        for (const w of workers) await w.stop();
        await sim.signingKeys.ready().catch(() => undefined); // its store write must land before the store closes
        await store.close();
      })();
      return closing;
    },
  };
}
