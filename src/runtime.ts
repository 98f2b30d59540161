import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { createApp } from './api/app.ts';
import { ClientRegistry, type OAuthClient } from './api/auth/clients.ts';
import { TokenIssuer } from './api/auth/tokens.ts';
import type { AppDeps, AppEnv } from './api/context.ts';
import type { CalendarOverrides } from './clock/calendar.ts';
import type { Clock } from './clock/clock.ts';
import type { ClockState } from './clock/scheme-clock.ts';
import type { Participant } from './sim/cop/participants.ts';
import type { SeedAccount } from './sim/cop/seed-accounts.ts';
import type { Organisation } from './sim/organisations.ts';
import { readJsonFile, Simulator } from './sim/simulator.ts';
import { openStore } from './sim/store.ts';

export const FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export interface RuntimeOptions {
  /** JSON data file; omitted (or `memory: true`) keeps everything in memory. */
  data?: string;
  memory?: boolean;
  /** OAuth clients file (default fixtures/clients.json). */
  clientsFile?: string;
  auth?: 'on' | 'off';
  fixturesDir?: string;
  /** Clock state to start with when the store holds none. */
  clock?: ClockState;
  tokenTtlSeconds?: number;
  /** Wall clock (token expiry, delivery retries); tests pass a manual one. */
  wall?: Clock;
  /** Load fixtures/accounts.json when the store holds no account yet (default true). */
  seedAccounts?: boolean;
  /** Name verification demands x-fapi-financial-id and x-jws-signature (CLI --cop-strict). */
  copStrict?: boolean;
}

/** Something that runs in the background while the simulator serves (outbox, running clock). */
export interface Worker {
  start(): void;
  stop(): Promise<void>;
}

export interface Runtime {
  sim: Simulator;
  app: Hono<AppEnv>;
  deps: AppDeps;
  workers: Worker[];
  /** Starts the background workers. In-process tests may leave them stopped and drive time by hand. */
  start(): void;
  /** Stops the workers and flushes the store. */
  close(): Promise<void>;
}

/** Opens the store, loads fixtures and builds the domain and the app: everything but the socket. */
export async function createRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const fixtures = options.fixturesDir ?? FIXTURES_DIR;
  const store = await openStore(options.memory || !options.data ? {} : { file: options.data });
  const organisations = readJsonFile<Organisation[]>(join(fixtures, 'organisations.json'));
  const overridesFile = join(fixtures, 'calendar', 'overrides.json');
  const calendarOverrides = existsSync(overridesFile) ? readJsonFile<CalendarOverrides>(overridesFile) : {};
  const participantsFile = join(fixtures, 'participants.json');
  const participants = existsSync(participantsFile) ? readJsonFile<Participant[]>(participantsFile) : [];
  const sim = new Simulator({
    store,
    organisations,
    participants,
    calendarOverrides,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.wall ? { wall: options.wall } : {}),
  });

  const accountsFile = join(fixtures, 'accounts.json');
  if (options.seedAccounts !== false && sim.accounts.repo.rows.size === 0 && existsSync(accountsFile)) {
    for (const account of readJsonFile<SeedAccount[]>(accountsFile)) sim.accounts.create(account);
  }

  const clients = new ClientRegistry(readJsonFile<OAuthClient[]>(options.clientsFile ?? join(fixtures, 'clients.json')));
  let key = store.getMeta<string>('auth_key');
  if (!key) {
    key = TokenIssuer.newKey();
    store.setMeta('auth_key', key);
  }
  const tokens = new TokenIssuer(key, sim.wall, options.tokenTtlSeconds);
  const deps: AppDeps = { sim, clients, tokens, auth: options.auth ?? 'on', copStrict: options.copStrict ?? false };
  const app = createApp(deps);
  await store.commit();

  const workers: Worker[] = [];
  let started = false;
  return {
    sim,
    app,
    deps,
    workers,
    start() {
      if (started) return;
      started = true;
      for (const w of workers) w.start();
    },
    async close() {
      for (const w of workers) await w.stop();
      await store.close();
    },
  };
}
