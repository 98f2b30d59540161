// The same features run in process, against a running simulator or against staging: what each
// target is (its address, clients, bank and CoP settings) and how one is opened.
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { NORTHWIND, type TestRuntime, testRuntime } from '../../src/harness/test-runtime.ts';
import { bundledRequester, type CopRequester, requesterFromSettings, simulatorRequester } from './cop-requester.ts';
import { FIXTURE_BANK, FIXTURE_CLIENTS, FIXTURE_COP, type TargetClient } from './fixture-clients.ts';
import { sandboxInUse, sandboxSimClients } from './sandbox.ts';
import { readSettings } from './settings.ts';

export type TargetName = 'inprocess' | 'sim' | 'staging';

/** Where the conformance steps send their requests. */
export interface Target {
  name: TargetName;
  baseUrl: string;
  fetch(request: Request): Promise<Response>;
  /** Credentials per named client; "default" is the one steps use unless told otherwise. */
  clients: Record<string, TargetClient>;
  /** A sort code registered to the default client's organisation (staging: CONFORMANCE_SORT_CODE), and its BIC. */
  bank: { sort_code: string; bic: string };
  /** A known account for name verification: its participant, sort code + number (14 digits), held name, type. */
  cop: { participant: string; account: string; name: string; type: 'Personal' | 'Business' };
  /**
   * Who the harness is when it asks for a name verification: every request to a participant's
   * name-verification endpoint is signed with this identity (none: staging without the
   * CONFORMANCE_COP_SIGNING_* settings, whose requests then go unsigned).
   */
  copRequester?: CopRequester;
  /** The in-process runtime (only for the default target), for steps that inspect the simulator. */
  runtime?: TestRuntime;
  close(): Promise<void>;
}

export interface TargetOptions {
  /** In process only: run the app with `--auth off`. */
  auth?: 'on' | 'off';
  /** In process only: `--cop-strict`. */
  copStrict?: boolean;
  /** In process only: `--jws-profile`. */
  jwsProfile?: '3.1.4' | '3.1.3';
  /** In process only: `--strict` (undeclared body keys refused). */
  strict?: boolean;
  /** In process only: keep the store in a journal file (`--data`) or a PostgreSQL database (`--store`). */
  store?: { data: string } | { postgres: string };
}

/** A setting the preflight (hooks.ts) already required; from the environment or conformance.json. */
function env(name: string): string {
  const v = readSettings()[name];
  if (!v) throw new Error(`${name} must be set for this conformance target`);
  return v;
}

/**
 * Staging has the client CI was given (default, also answering to "northwind") and, when
 * CONFORMANCE_OTHER_CLIENT_ID/SECRET/ORGANISATION_ID are set, a client of a second organisation
 * ("harbour") for the tenant scenarios (tagged @two-organisations).
 */
function stagingClients(): Record<string, TargetClient> {
  const settings = readSettings();
  const signing =
    settings.CONFORMANCE_SIGNING_KEY_ID && settings.CONFORMANCE_SIGNING_KEY
      ? {
          key_id: settings.CONFORMANCE_SIGNING_KEY_ID,
          key: createPrivateKey(readFileSync(settings.CONFORMANCE_SIGNING_KEY)),
        }
      : undefined;
  const main: TargetClient = {
    client_id: env('CONFORMANCE_CLIENT_ID'),
    client_secret: settings.CONFORMANCE_CLIENT_SECRET ?? '',
    organisation_id: env('CONFORMANCE_ORGANISATION_ID'),
    ...(signing ? { signing } : {}),
  };
  const clients: Record<string, TargetClient> = { default: main, northwind: main };
  if (readSettings().CONFORMANCE_OTHER_CLIENT_ID) {
    clients.harbour = {
      client_id: env('CONFORMANCE_OTHER_CLIENT_ID'),
      client_secret: env('CONFORMANCE_OTHER_CLIENT_SECRET'),
      organisation_id: env('CONFORMANCE_OTHER_ORGANISATION_ID'),
    };
  }
  return clients;
}

export async function openTarget(name: string, options: TargetOptions = {}): Promise<Target> {
  if (name === 'staging') {
    const baseUrl = env('CONFORMANCE_BASE_URL').replace(/\/$/, '');
    const bank = { sort_code: env('CONFORMANCE_SORT_CODE'), bic: env('CONFORMANCE_BIC') };
    const type = readSettings().CONFORMANCE_COP_ACCOUNT_TYPE ?? 'Personal';
    if (type !== 'Personal' && type !== 'Business')
      throw new Error(`CONFORMANCE_COP_ACCOUNT_TYPE must be Personal or Business, got ${type}`);
    const cop = {
      participant: env('CONFORMANCE_COP_PARTICIPANT_ID'),
      account: env('CONFORMANCE_COP_ACCOUNT'),
      name: env('CONFORMANCE_COP_ACCOUNT_NAME'),
      type,
    } as const;
    const copRequester = requesterFromSettings(readSettings());
    return {
      name,
      baseUrl,
      fetch: (r) => fetch(r),
      clients: stagingClients(),
      bank,
      cop,
      ...(copRequester ? { copRequester } : {}),
      close: async () => {},
    };
  }
  if (name === 'sim') {
    const baseUrl = env('SIM_BASE_URL').replace(/\/$/, '');
    // In a sandbox (CONFORMANCE_SANDBOX) the fixture organisations' clients are the sandbox's own.
    const sandbox = sandboxInUse();
    const clients = sandbox ? sandboxSimClients(sandbox) : { ...FIXTURE_CLIENTS };
    if (!sandbox && process.env.SIM_CLIENT_ID && process.env.SIM_CLIENT_SECRET) {
      clients.default = {
        client_id: process.env.SIM_CLIENT_ID,
        client_secret: process.env.SIM_CLIENT_SECRET,
        organisation_id: NORTHWIND.organisation_id,
      };
    }
    return {
      name,
      baseUrl,
      fetch: (r) => fetch(r),
      clients,
      bank: FIXTURE_BANK,
      cop: FIXTURE_COP,
      copRequester: simulatorRequester(readSettings()),
      close: async () => {},
    };
  }
  if (name !== 'inprocess') throw new Error(`unknown conformance target ${name}; use inprocess, sim or staging`);
  // Like `npm start`: the catalogue's daily reports arrive as the clock moves.
  const runtime = await testRuntime({
    scheduledReports: true,
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.copStrict ? { copStrict: true } : {}),
    ...(options.jwsProfile ? { jwsProfile: options.jwsProfile } : {}),
    ...(options.strict ? { strict: true } : {}),
    ...(options.store ? { memory: false, ...options.store } : {}),
  });
  runtime.start();
  return {
    name: 'inprocess',
    baseUrl: 'http://scheme-sim.test',
    fetch: async (r) => runtime.app.fetch(r),
    clients: { ...FIXTURE_CLIENTS },
    bank: FIXTURE_BANK,
    cop: FIXTURE_COP,
    // In process the simulator is the fixtures': the bundled development key, whatever the settings say.
    copRequester: bundledRequester(options.jwsProfile),
    runtime,
    close: () => runtime.close(),
  };
}
