// What the HTTP layer knows of the server's sandboxes: an interface the runtime implements
// (src/sandboxes.ts), so routes and the dispatch layer never import the wiring above them.
import type { OAuthClient } from './auth/clients.ts';

/** The id of the server's own world: the default sandbox, which has no prefix and no sbx_ tokens. */
export const DEFAULT_SANDBOX = 'default';

/** Who may create sandboxes: an admin client of the default sandbox, or anyone (`--sandboxes open`). */
export type SandboxCreation = 'admin' | 'open';

export interface SandboxSettings {
  strict?: boolean;
  cop_strict?: boolean;
  jws_profile?: '3.1.4' | '3.1.3';
  match_thresholds?: Record<string, unknown>;
}

export interface SandboxClockStart {
  mode?: 'frozen' | 'running';
  start?: string;
  speed?: number;
}

/** The attributes of a create body, as checked by schema sandbox-create. */
export interface SandboxRequest {
  id?: string;
  clock?: SandboxClockStart;
  seed?: 'fixtures' | 'none';
  expires_at?: string;
  lifetime_seconds?: number;
  settings?: SandboxSettings;
}

/** A live sandbox as the routes show it. */
export interface SandboxEntry {
  readonly id: string;
  readonly createdOn: string;
  readonly expiresAt: string;
  readonly seed: 'fixtures' | 'none';
  readonly settings: SandboxSettings;
  readonly clients: readonly OAuthClient[];
  /** The sandbox's app (a Hono app): answers a whole request. */
  readonly app: { fetch(request: Request, env?: unknown): Response | Promise<Response> };
  /** The clock as GET /v1/simulator/clock shows it, for the sandbox's admin organisation. */
  clock(): object;
  recordCount(): number;
}

/** Where a request goes when it is not for the app that received it. */
export type SandboxTarget =
  | { entry: SandboxEntry /** the path without /sandboxes/{id}, when the prefix named it */; path?: string }
  | { refused: 401 | 404; message: string };

export interface SandboxDirectory {
  readonly creation: SandboxCreation;
  readonly recordQuota: number;
  /**
   * The sandbox a request received by the default world is for: named by the path prefix
   * `/sandboxes/{id}`, a `sbx_` token, the Basic credentials of a token request, or a signed
   * request's key id. Undefined: the default world's own.
   */
  route(path: string, authorization: string | undefined): SandboxTarget | undefined;
  create(request: SandboxRequest): Promise<SandboxEntry>;
  /** One sandbox (a node of a shared double asks the node that serves it: hence a promise). */
  get(id: string): SandboxEntry | undefined | Promise<SandboxEntry | undefined>;
  list(): SandboxEntry[] | Promise<SandboxEntry[]>;
  delete(id: string): Promise<boolean>;
}

/**
 * The env key under which the default world hands a sandbox's app the path prefix it took off
 * (`/sandboxes/{id}`): a signed request's `(request-target)` was signed with it.
 */
export const SANDBOX_PATH_PREFIX = 'schemeSimSandboxPathPrefix';

/** The path prefix a request came under (none when it reached its world by its credentials). */
export function pathPrefixOf(env: unknown): string {
  const prefix = (env as Record<string, unknown> | undefined)?.[SANDBOX_PATH_PREFIX];
  return typeof prefix === 'string' ? prefix : '';
}
