// What the app's routes are handed: the per-request context and the app's dependencies, typed once
// so no route reaches past them for the simulator, clients, tokens or mode.
import type { Mode } from '../sim/mode.ts';
import type { Simulator } from '../sim/simulator.ts';
import type { ClientRegistry } from './auth/clients.ts';
import type { TokenIssuer } from './auth/tokens.ts';
import type { DevClientHint } from './dashboard/dashboard-page.ts';
import type { RequestJournal } from './journal/request-journal.ts';
import type { CorsOrigins } from './layers/cors.ts';
import type { Faults } from './layers/faults.ts';
import type { ResponderSigner } from './open-banking/responder-signer.ts';
import type { SandboxDirectory } from './sandbox-directory.ts';
import type { WireRules } from './wire/wire-rules.ts';

/** What every route can read from the context. */
export interface AppEnv {
  Variables: {
    /** The organisation of the caller's client (the default organisation with --auth off). */
    organisationId: string;
    clientId: string;
    /** How this app reads and answers where the fake account API's server differs (wire-rules.ts). */
    wire: WireRules;
    /**
     * The answer's text, made again when asked: set by a route whose answer can be rebuilt from
     * what it references (a list page of stored records, which never change in place), so that
     * the request journal keeps those references rather than a copy of a long text (issue 30).
     */
    answerText?: { answer: Response; text: () => string };
  };
}

export interface AppDeps {
  /** The sandbox this app serves: `default` for the server's own world (api/sandbox-directory.ts). */
  worldId?: string;
  /** The server's sandboxes: the routes under /v1/simulator/sandboxes, and the default world routes requests to them. */
  sandboxes?: SandboxDirectory;
  /** A sandbox's limit of records: a create past it is refused (403 naming the limit). */
  recordQuota?: { limit: number; count: () => number };
  sim: Simulator;
  clients: ClientRegistry;
  tokens: TokenIssuer;
  /** How the simulator runs (credentials, strict CoP, strict bodies): the simulator's own mode. */
  mode: Mode;
  /** Fault rules clients set (POST /v1/simulator/faults); one per app when not given. */
  faults?: Faults;
  /** Signs name-verification answers (x-jws-signature) in the runtime's JWS profile. */
  signer: ResponderSigner;
  /** Every address a host name resolves to (callbacks at the simulator itself are refused by name too). */
  resolveHost?: (hostname: string) => Promise<string[]>;
  /** Every request and its answer (GET /v1/simulator/requests, the request log); one per app when not given. */
  journal?: RequestJournal;
  /** The bundled fixtures' development client, named by the dashboard's sign-in (none with a clients file). */
  devClientHint?: DevClientHint;
  /** Browser origins allowed by CORS (default localhost origins; --cors). */
  cors?: CorsOrigins;
  /** The files of the /docs page's renderer (src/package-files.ts); /docs answers 404 for them without it. */
  /** The package version (the OpenAPI document's info.version). */
  version?: string;
  docsAssets?: (name: string) => Promise<{ body: Uint8Array; type: string } | undefined>;
}
