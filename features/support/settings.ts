// The settings a conformance target needs, from the environment or a conformance.json beside the
// project (environment wins), and the preflight that checks them all once before any scenario.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface Setting {
  name: string;
  /** What it is, for the message that names a missing one. */
  about: string;
  optional?: boolean;
}

/** Real staging: everything the spec-valid steps need to build requests Form3 accepts. */
export const STAGING_SETTINGS: readonly Setting[] = [
  { name: 'CONFORMANCE_BASE_URL', about: 'the API base URL' },
  { name: 'CONFORMANCE_CLIENT_ID', about: 'the OAuth client id' },
  { name: 'CONFORMANCE_CLIENT_SECRET', about: 'the OAuth client secret (or a signing key, below)' },
  { name: 'CONFORMANCE_SIGNING_KEY_ID', about: 'the id of a public key registered for the client', optional: true },
  { name: 'CONFORMANCE_SIGNING_KEY', about: 'the path of its private key (PEM)', optional: true },
  { name: 'CONFORMANCE_ORGANISATION_ID', about: 'the organisation of that client' },
  { name: 'CONFORMANCE_SORT_CODE', about: 'a sort code (bank_id) registered to the organisation' },
  { name: 'CONFORMANCE_BIC', about: 'the BIC registered to the organisation' },
  { name: 'CONFORMANCE_COP_PARTICIPANT_ID', about: 'the Open Banking id of its CoP participant' },
  { name: 'CONFORMANCE_COP_ACCOUNT', about: 'a known account for CoP: sort code and account number, 14 digits' },
  { name: 'CONFORMANCE_COP_ACCOUNT_NAME', about: 'the name held on that account' },
  {
    name: 'CONFORMANCE_COP_WAIT_SECONDS',
    about: 'how long an account the harness registers may take to be answered for (default 30)',
    optional: true,
  },
  { name: 'CONFORMANCE_OTHER_CLIENT_ID', about: 'a client of a second organisation', optional: true },
  { name: 'CONFORMANCE_OTHER_CLIENT_SECRET', about: 'its secret', optional: true },
  { name: 'CONFORMANCE_OTHER_ORGANISATION_ID', about: 'its organisation', optional: true },
  { name: 'CONFORMANCE_SANDBOX', about: 'new, or the id of a sandbox of the target to run in', optional: true },
];

/** The settings a sandbox's own client stands in for (CONFORMANCE_SANDBOX). */
const SANDBOX_CLIENT_SETTINGS = ['CONFORMANCE_CLIENT_ID', 'CONFORMANCE_CLIENT_SECRET', 'CONFORMANCE_ORGANISATION_ID'];

/** A running simulator. */
export const SIM_SETTINGS: readonly Setting[] = [
  { name: 'SIM_BASE_URL', about: 'the running simulator, e.g. http://127.0.0.1:8080' },
];

export type Settings = Record<string, string | undefined>;

/** The environment over conformance.json (a flat object of the same names), if that file exists. */
export function readSettings(env: NodeJS.ProcessEnv = process.env, file = resolve('conformance.json')): Settings {
  let fromFile: Settings = {};
  if (existsSync(file)) {
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8')) as Settings;
    } catch (err) {
      throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
    }
  }
  const out: Settings = { ...fromFile };
  for (const [k, v] of Object.entries(env)) if (v) out[k] = v;
  return out;
}

/** One line naming every required setting that is missing, or undefined when all are there. */
export function missingSettings(target: string, required: readonly Setting[], settings: Settings): string | undefined {
  // A signing key stands in for the client secret: requests are then signed, not sent with a token.
  const signing = !!settings.CONFORMANCE_SIGNING_KEY_ID && !!settings.CONFORMANCE_SIGNING_KEY;
  // In a sandbox (CONFORMANCE_SANDBOX) the run acts as the sandbox's client (features/support/sandbox.ts).
  const sandboxed = !!settings.CONFORMANCE_SANDBOX;
  const missing = required.filter(
    (s) =>
      !s.optional &&
      !settings[s.name] &&
      !(signing && s.name === 'CONFORMANCE_CLIENT_SECRET') &&
      !(sandboxed && SANDBOX_CLIENT_SETTINGS.includes(s.name)),
  );
  if (missing.length === 0) return undefined;
  return `the ${target} conformance target needs ${missing.map((s) => `${s.name} (${s.about})`).join(', ')}; set them in the environment or conformance.json`;
}

/** The required settings of a target. */
export function settingsOf(target: string): readonly Setting[] {
  if (target === 'staging') return STAGING_SETTINGS;
  if (target === 'sim') return SIM_SETTINGS;
  return [];
}

/**
 * Reaches the target and gets a token with the configured client: a wrong URL or credentials are
 * found here, once, rather than in every scenario. Resolves to a problem, or undefined when fine.
 */
export async function reachTarget(baseUrl: string, clientId: string, secret: string): Promise<string | undefined> {
  return (await clientToken(baseUrl, clientId, secret)).problem;
}

/** A token of the client from the target's token endpoint, or the problem that kept it from one. */
export async function clientToken(
  baseUrl: string,
  clientId: string,
  secret: string,
): Promise<{ token: string; problem?: undefined } | { token?: undefined; problem: string }> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl.replace(/\/$/, '')}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } }).cause;
    return {
      problem: `cannot reach ${baseUrl}: ${cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (err as Error).message}`,
    };
  }
  if (res.status !== 200)
    return {
      problem: `${baseUrl} refused a token for client ${clientId}: ${res.status} ${(await res.text()).slice(0, 200)}`,
    };
  return { token: ((await res.json()) as { access_token: string }).access_token };
}

/** Reaches the target with a request signed by the configured key; resolves to a problem, or undefined. */
export async function reachTargetSigned(
  baseUrl: string,
  sign: (url: URL) => Record<string, string>,
): Promise<string | undefined> {
  const url = new URL(`${baseUrl.replace(/\/$/, '')}/v1/organisation/accounts?page[size]=1`);
  let res: Response;
  try {
    res = await fetch(url, { headers: sign(url), signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    return `cannot reach ${baseUrl}: ${(err as Error).message}`;
  }
  if (res.status !== 200)
    return `${baseUrl} refused a signed request: ${res.status} ${(await res.text()).slice(0, 200)}`;
  return undefined;
}
