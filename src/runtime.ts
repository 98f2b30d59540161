// Everything a simulator needs but the socket, built from one set of options: the CLI, the package's
// entry, msw and the harness all start a simulator through this.
import type { Hono } from 'hono';
import type { OAuthClient } from './api/auth/clients.ts';
import type { AppDeps, AppEnv } from './api/context.ts';
import type { CorsOrigins } from './api/layers/cors.ts';
import type { SandboxDirectory } from './api/sandbox-directory.ts';
import { STORED_SECRETS, storedRecordProblem } from './api/stored-records.ts';
import type { Clock } from './clock/clock.ts';
import type { ClockState } from './clock/scheme-clock.ts';
import { ClientRequests } from './delivery/client-requests.ts';
import type { DeliveryOptions, DeliveryWorker } from './delivery/delivery-worker.ts';
import { FIXTURES_DIR, type Fixtures, readFixtures } from './fixtures.ts';
import { DEFAULT_SANDBOX, Sandboxes, type SandboxLimits, type SandboxNode } from './sandboxes.ts';
import { JWS_PROFILES, type JwsProfile } from './signatures/jws-profile.ts';
import { secretProblem } from './signatures/notifications/standard-webhooks.ts';
import type { GivenSigningKey } from './sim/cop/participant.ts';
import { type MatchThresholds, matchThresholds } from './sim/cop/thresholds.ts';
import { type Mode, resolveMode } from './sim/mode.ts';
import { type DeliveryRetention, retentionFrom } from './sim/notifications/outbox-retention.ts';
import { checkSchedule, type RetrySchedule } from './sim/notifications/retry-schedule.ts';
import type { Simulator } from './sim/simulator.ts';
import { adoptSecrets } from './store/issued-secrets.ts';
import type { RecordCheck } from './store/load-check.ts';
import { type LeaseFence, openStore, type Store } from './store/store.ts';
import { assembleWorld, type Worker, type WorldOptions } from './world.ts';

export { FIXTURES_DIR } from './fixtures.ts';
export type { Worker } from './world.ts';

export interface RuntimeOptions {
  /** JSON data file; omitted (or `memory: true`) keeps everything in memory. */
  data?: string;
  memory?: boolean;
  /** A PostgreSQL URL: the store lives in that database (wins over `data`). */
  postgres?: string;
  /**
   * A node of a shared double on `postgres` (docs/shared-double.md): no database lock is taken, and
   * every write of every world proves this lease first in its own transaction.
   */
  postgresFence?: LeaseFence;
  /**
   * A node of a shared double serving the default world: its sandboxes are the node's (they live
   * on when the default world moves to another node), and the default world's sandbox routes
   * answer from `directory`, which spans every node.
   */
  node?: { sandboxes: Sandboxes; directory: SandboxDirectory };
  /** OAuth clients file (default fixtures/clients.json). */
  clientsFile?: string;
  auth?: 'on' | 'off';
  fixturesDir?: string;
  /** Clock state to start with when the store holds none. */
  clock?: ClockState;
  tokenTtlSeconds?: number;
  /** Wall clock (token expiry, delivery retries); tests pass a manual one. */
  wall?: Clock;
  /** Longest wall wait of the running clock's job timer between looks at the queue (default 250 ms). */
  clockTimerMs?: number;
  /** Server-wide Standard Webhooks secret (`whsec_…`) for subscriptions without their own. */
  webhookSecret?: string;
  /** Retry schedule of notification deliveries (wall time); tests pass FAST_RETRY_SCHEDULE. */
  retrySchedule?: RetrySchedule;
  /** Least wall time between two redeliveries of one delivery (default 10 s; CLI --redelivery-interval). */
  redeliveryIntervalMs?: number;
  /** What is kept of finished deliveries (default 7 days, at most 10,000; CLI --delivery-retention, --delivery-history). */
  deliveryRetention?: Partial<DeliveryRetention>;
  /** Delivery tuning: timeout per attempt, concurrency, SQS endpoint/region/credentials (default from env). */
  delivery?: Omit<DeliveryOptions, 'webhookSecret'>;
  /**
   * Load the seed records into an empty store: fixtures/accounts.json when it holds no account yet
   * (default true, false with `auth: 'off'`, as the fake account API starts empty: the mode
   * decides), fixtures/payments.json when it holds no payment (default true; `false` drops them too).
   */
  seedAccounts?: boolean;
  /** Schedule the daily report arrivals of the catalogue (default true; tests that count jobs turn it off). */
  scheduledReports?: boolean;
  /** Name verification demands x-fapi-financial-id and a valid x-jws-signature (CLI --cop-strict). */
  copStrict?: boolean;
  /**
   * Refuse keys a resource's model does not declare (CLI --strict). Off, as Form3's go-swagger
   * server reads bodies, they are ignored and never stored.
   */
  strict?: boolean;
  /** The Open Banking message-signing profile of x-jws-signature (CLI --jws-profile; default 3.1.4). */
  jwsProfile?: JwsProfile;
  /**
   * Distinct successful name-verification answers whose signature is kept, per participant
   * (default 4096; 0 signs every answer afresh).
   */
  copSignatureCache?: number;
  /**
   * Participants' signing keys by open_banking_id, over those of fixtures/participants.json (tests
   * pass keys made once, rather than generating three RSA keys per runtime).
   */
  participantSigningKeys?: Record<string, GivenSigningKey>;
  /** Resolves callback host names (default the system resolver); tests map names of their own. */
  resolveHost?: (hostname: string) => Promise<string[]>;
  /** The load check of every stored record (default: each collection's schema, src/api/stored-records.ts). */
  storeCheck?: RecordCheck;
  /** Days of scheme time a report is kept after it arrived (default 366; 0 keeps all; CLI --report-retention). */
  reportRetentionDays?: number;
  /** How many requests the request journal keeps (default 1,000; CLI --journal-size; 0 keeps none). */
  journalSize?: number;
  /** Take over the data file's lock whatever it names (CLI --force-unlock). */
  forceUnlock?: boolean;
  /** Browser origins allowed by CORS (default localhost origins; CLI --cors). */
  cors?: CorsOrigins;
  /**
   * Sandboxes (docs/sandboxes.md): who may create one (`admin`, the default: an admin client of the
   * default sandbox; `open`: anyone, CLI --sandboxes open), how many may live at once (default
   * 1,000) and how many records each may hold (default 100,000).
   */
  sandboxes?: Partial<SandboxLimits>;
  /**
   * The name matcher's thresholds over the defaults (src/sim/cop/thresholds.ts, docs/cop.md), this
   * runtime's simulator's own: runtimes in one process may differ, and so may sandboxes (their
   * `settings.match_thresholds` over these). A field out of range throws.
   */
  matchThresholds?: Partial<MatchThresholds>;
}

export interface Runtime {
  sim: Simulator;
  /** The first client of the clients file, which `npm start` prints for a quick start. */
  devClient: OAuthClient | undefined;
  app: Hono<AppEnv>;
  deps: AppDeps;
  workers: Worker[];
  /** The notification delivery worker (also in `workers`); tests with a manual wall call `runDue()`. */
  delivery: DeliveryWorker;
  /**
   * Readies what the first requests would otherwise wait for: the validator of every request body compiled and
   * the participants' signing keys loaded (or generated and kept in the store). The server awaits
   * it before it says it is listening; in-process tests need not.
   */
  warm(): Promise<void>;
  /** The sandboxes of this server: create, read, list and delete worlds of their own (docs/sandboxes.md). */
  sandboxes: Sandboxes;
  /** The requests the server is answering: the Node adapter counts them, background delivery gives way. */
  requests: ClientRequests;
  /** Starts the background workers. In-process tests may leave them stopped and drive time by hand. */
  start(): void;
  /** Stops the workers and flushes the store. */
  close(): Promise<void>;
}

/** Opens the store, loads fixtures and builds the domain and the app: everything but the socket. */
export async function createRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const fixtures = readFixtures(options.fixturesDir ?? FIXTURES_DIR);
  if (options.webhookSecret !== undefined) {
    const problem = secretProblem(options.webhookSecret);
    if (problem) throw new Error(`webhook secret ${problem}`);
  }
  if (options.retrySchedule) checkSchedule(options.retrySchedule);
  const mode = resolveMode(options);
  if (options.jwsProfile !== undefined && !JWS_PROFILES.includes(options.jwsProfile))
    throw new Error(`JWS profile must be one of ${JWS_PROFILES.join(', ')}, got ${String(options.jwsProfile)}`);
  // Checked before the data file is opened; the fields left out are the defaults.
  const deliveryRetention = options.deliveryRetention ? retentionFrom(options.deliveryRetention) : undefined;
  const thresholds = options.matchThresholds ? matchThresholds(options.matchThresholds) : undefined;
  // Every record is checked against its schema before anything runs or writes (docs/store.md).
  const store = await openStore(
    options.postgres
      ? {
          postgres: options.postgres,
          check: options.storeCheck ?? storedRecordProblem,
          secrets: STORED_SECRETS,
          ...(options.postgresFence ? { postgresFence: options.postgresFence } : {}),
        }
      : options.memory || !options.data
        ? {}
        : {
            file: options.data,
            check: options.storeCheck ?? storedRecordProblem,
            secrets: STORED_SECRETS,
            ...(options.forceUnlock ? { forceUnlock: true } : {}),
          },
  );
  try {
    return await assemble(store, mode, options, fixtures, deliveryRetention, thresholds);
  } catch (err) {
    // Nothing serves: release the data file (and its lock) for the next try.
    await store.close().catch(() => undefined);
    throw err;
  }
}

/** Everything on top of an open store: fixtures, the default world, the sandboxes and the workers. */
async function assemble(
  store: Store,
  mode: Mode,
  options: RuntimeOptions,
  fixtures: Fixtures,
  deliveryRetention: DeliveryRetention | undefined,
  thresholds: MatchThresholds | undefined,
): Promise<Runtime> {
  // First, so whatever the store writes next (even a start-up that fails half-way and flushes on
  // close) holds the token key: a store that holds anything but its key has lost it. A store from
  // before the ledger of issued secrets gets one; the store's load check refused a lost key.
  adoptSecrets(store, STORED_SECRETS);
  const clientList = fixtures.clients(options.clientsFile);
  // The requests the server answers come first: every world's delivery gives way to them.
  const requests = new ClientRequests();
  const shared = {
    ...worldSettings(options, deliveryRetention),
    clientRequests: requests,
    ...(thresholds ? { matchThresholds: thresholds } : {}),
  };
  const sandboxes =
    options.node?.sandboxes ??
    new Sandboxes({
      fixtures,
      mode,
      clientTemplate: clientList,
      shared,
      location: options.postgres
        ? { postgres: options.postgres, ...(options.postgresFence ? { fence: options.postgresFence } : {}) }
        : options.memory || !options.data
          ? { memory: true }
          : { file: options.data },
      check: options.storeCheck ?? storedRecordProblem,
      ...(options.sandboxes ? { limits: options.sandboxes } : {}),
    });
  const world = await assembleWorld({
    ...shared,
    id: DEFAULT_SANDBOX,
    store,
    mode,
    fixtures,
    clients: clientList,
    ...(mode.seedAccounts ? { seedAccounts: () => fixtures.seedAccounts() } : {}),
    ...(mode.seedPayments ? { seedPayments: () => fixtures.seedPayments() } : {}),
    participantKeys: { ...(options.participantSigningKeys ? { given: options.participantSigningKeys } : {}) },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.journalSize !== undefined ? { journalSize: options.journalSize } : {}),
    // The bundled fixtures (no clients file given) hold development credentials only.
    ...(options.clientsFile === undefined && clientList[0]
      ? {
          devClientHint: {
            client_id: clientList[0].client_id,
            client_secret: clientList[0].client_secret,
            ...(clientList[0].aliases?.[0] ? { alias: clientList[0].aliases[0] } : {}),
          },
        }
      : {}),
    sandboxes: options.node?.directory ?? sandboxes,
  });
  try {
    await sandboxes.open(world);
  } catch (err) {
    await world.close().catch(() => undefined);
    throw err;
  }
  let started = false;
  return {
    sim: world.sim,
    app: world.app,
    devClient: clientList[0],
    deps: world.deps,
    workers: world.workers,
    delivery: world.delivery,
    sandboxes,
    requests,
    warm: () => world.warm(),
    start() {
      if (started) return;
      started = true;
      world.start();
      sandboxes.start();
    },
    async close() {
      // A node's sandboxes are its own, not the default world's: they close with the node.
      if (!options.node) await sandboxes.close();
      await world.close();
    },
  };
}

/**
 * The sandboxes of one node of a shared double (docs/shared-double.md): made once per node, with
 * the settings a runtime of `options` gives its own, loading each sandbox as its lease is taken.
 */
export function createNodeSandboxes(options: RuntimeOptions, node: SandboxNode): Sandboxes {
  if (!options.postgres) throw new Error('the sandboxes of a node live in PostgreSQL (--store postgres://…)');
  const fixtures = readFixtures(options.fixturesDir ?? FIXTURES_DIR);
  const deliveryRetention = options.deliveryRetention ? retentionFrom(options.deliveryRetention) : undefined;
  const thresholds = options.matchThresholds ? matchThresholds(options.matchThresholds) : undefined;
  return new Sandboxes({
    fixtures,
    mode: resolveMode(options),
    clientTemplate: fixtures.clients(options.clientsFile),
    shared: { ...worldSettings(options, deliveryRetention), ...(thresholds ? { matchThresholds: thresholds } : {}) },
    location: { postgres: options.postgres },
    check: options.storeCheck ?? storedRecordProblem,
    ...(options.sandboxes ? { limits: options.sandboxes } : {}),
    node,
  });
}

/** The settings every world of this runtime shares, the default one and each sandbox. */
function worldSettings(
  options: RuntimeOptions,
  deliveryRetention: DeliveryRetention | undefined,
): Omit<WorldOptions, 'id' | 'store' | 'mode' | 'fixtures' | 'clients' | 'participantKeys'> {
  return {
    ...(options.wall ? { wall: options.wall } : {}),
    ...(options.tokenTtlSeconds !== undefined ? { tokenTtlSeconds: options.tokenTtlSeconds } : {}),
    ...(options.clockTimerMs ? { clockTimerMs: options.clockTimerMs } : {}),
    ...(options.webhookSecret ? { webhookSecret: options.webhookSecret } : {}),
    ...(options.retrySchedule ? { retrySchedule: options.retrySchedule } : {}),
    ...(options.redeliveryIntervalMs !== undefined ? { redeliveryIntervalMs: options.redeliveryIntervalMs } : {}),
    ...(deliveryRetention ? { deliveryRetention } : {}),
    ...(options.delivery ? { delivery: options.delivery } : {}),
    scheduledReports: options.scheduledReports !== false,
    ...(options.jwsProfile ? { jwsProfile: options.jwsProfile } : {}),
    ...(options.copSignatureCache !== undefined ? { copSignatureCache: options.copSignatureCache } : {}),
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
    ...(options.reportRetentionDays !== undefined ? { reportRetentionDays: options.reportRetentionDays } : {}),
    ...(options.cors ? { cors: options.cors } : {}),
  };
}
