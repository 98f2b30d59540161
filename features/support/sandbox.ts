// CONFORMANCE_SANDBOX: a run in a sandbox of the target (docs/sandboxes.md), a whole world of its
// own on a running simulator, so runs at once against one server never meet. `new` creates one
// before the first scenario, with the clock and settings the run needs, and deletes it after the
// last (passed or failed); a sandbox id uses that sandbox as it is and leaves it. Either way the
// run acts as the sandbox's clients in place of the configured ones (organisations are copies, so
// sort codes and BICs hold). Requests keep the server's base URL, as on staging: the sandbox's
// credentials (its clients' tokens, its keys' ids) take them to the sandbox, and a request signed
// over the path stays valid (the path prefix /sandboxes/{id} is taken off before the sandbox reads
// it). What the sandbox's clients reach no other world reaches.
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { form3SignedHeaders, signCopRequest } from '../../src/index.ts';
import { BUNDLED_ISS, BUNDLED_KEY_FILE, requesterFromSettings } from './cop-requester.ts';
import { FIXTURE_CLIENTS, FIXTURE_COP, type TargetClient } from './fixture-clients.ts';
import { clientToken, type Settings } from './settings.ts';
import { SCENARIO_START } from './sim-target.ts';

export interface SandboxClient {
  client_id: string;
  client_secret?: string;
  organisation_id: string;
  name?: string;
  role?: string;
  key_ids?: string[];
}

export interface Sandbox {
  id: string;
  attributes: {
    path_prefix?: string;
    expires_at?: string;
    clock?: { now?: string; mode?: string };
    clients?: SandboxClient[];
  };
}

/** The sandbox this run is in, once the preflight has found or created it. */
export interface SandboxRun {
  sandbox: Sandbox;
  /** The server's base URL, where the run's requests go. */
  serverUrl: string;
  /** The sandbox's address: the server's URL under its path prefix (the journey ledger's key, messages). */
  address: string;
  /** Made for this run: deleted after it. */
  created: boolean;
  /** The credentials that created it (a default-sandbox admin), if any. */
  creator?: { client_id: string; client_secret: string };
}

let current: SandboxRun | undefined;

/** The sandbox the run is in, or undefined when CONFORMANCE_SANDBOX is not set (or in process). */
export function sandboxInUse(): SandboxRun | undefined {
  return current;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Sandboxes made for a run expire after this long if the run is killed before it deletes them. */
const DEFAULT_LIFETIME_SECONDS = 4 * 3600;

/** CONFORMANCE_SANDBOX as the run takes it: `new`, a sandbox id, or undefined (not set). Throws on a bad value. */
export function sandboxSetting(settings: Settings): string | undefined {
  const v = settings.CONFORMANCE_SANDBOX?.trim();
  if (!v) return undefined;
  if (v === 'new' || UUID.test(v)) return v;
  throw new Error(`CONFORMANCE_SANDBOX must be new or the id (a UUID) of a sandbox of the target, got '${v}'`);
}

/**
 * The create body's attributes: the clock the profile's scenarios need and the settings the run
 * uses. The sim target's scenarios are written for the clock frozen at 2026-12-21T09:00Z (its
 * preflight refuses any other, sim-target.ts); the staging profile takes the target's clock as
 * staging's, so the sandbox's agrees with the harness's today: frozen on CONFORMANCE_TODAY when
 * set, else running from now. A run that signs its name verification requests
 * (CONFORMANCE_COP_SIGNING_*) gets a strict responder, in the profile it signs in.
 */
export function sandboxAttributes(target: 'sim' | 'staging', settings: Settings, now = new Date()): object {
  const lifetime = Number(settings.CONFORMANCE_SANDBOX_LIFETIME_SECONDS ?? DEFAULT_LIFETIME_SECONDS);
  if (!Number.isInteger(lifetime) || lifetime < 60 || lifetime > 2_592_000)
    throw new Error(
      `CONFORMANCE_SANDBOX_LIFETIME_SECONDS must be a whole number of seconds from 60 to 2592000, got '${settings.CONFORMANCE_SANDBOX_LIFETIME_SECONDS}'`,
    );
  const today = settings.CONFORMANCE_TODAY;
  const clock =
    target === 'sim'
      ? { mode: 'frozen', start: SCENARIO_START }
      : today
        ? { mode: 'frozen', start: `${today}T09:00:00.000Z` }
        : { mode: 'running', start: now.toISOString(), speed: 1 };
  const copSettings: Record<string, unknown> = {};
  if (target === 'staging' && requesterFromSettings(settings)) copSettings.cop_strict = true;
  if (settings.CONFORMANCE_COP_JWS_PROFILE) copSettings.jws_profile = settings.CONFORMANCE_COP_JWS_PROFILE;
  return {
    clock,
    seed: 'fixtures',
    lifetime_seconds: lifetime,
    ...(Object.keys(copSettings).length ? { settings: copSettings } : {}),
  };
}

interface Answer {
  status: number;
  json: unknown;
  text: string;
}

async function call(url: string, method: string, token: string | undefined, body?: unknown): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

const messageOf = (a: Answer) =>
  `${a.status} ${((a.json as { error_message?: string } | undefined)?.error_message ?? a.text).replace(/\s+/g, ' ').trim().slice(0, 200)}`;

/** Where the target is and which client may act for it (staging: CONFORMANCE_*, sim: SIM_*). */
function targetOf(
  target: 'sim' | 'staging',
  settings: Settings,
): { url: string; urlSetting: string; credentials?: { client_id: string; client_secret: string } } {
  if (target === 'staging') {
    const [id, secret] = [settings.CONFORMANCE_CLIENT_ID, settings.CONFORMANCE_CLIENT_SECRET];
    return {
      url: settings.CONFORMANCE_BASE_URL!.replace(/\/$/, ''),
      urlSetting: 'CONFORMANCE_BASE_URL',
      ...(id && secret ? { credentials: { client_id: id, client_secret: secret } } : {}),
    };
  }
  const fixture = FIXTURE_CLIENTS.default!;
  return {
    url: settings.SIM_BASE_URL!.replace(/\/$/, ''),
    urlSetting: 'SIM_BASE_URL',
    credentials: {
      client_id: settings.SIM_CLIENT_ID ?? fixture.client_id,
      client_secret: settings.SIM_CLIENT_SECRET ?? fixture.client_secret,
    },
  };
}

const NO_SANDBOXES = 'the target does not offer sandboxes; unset CONFORMANCE_SANDBOX';

/**
 * Creates a sandbox: as the configured client when it is an admin of the default sandbox, else
 * with no credentials (a server started with --sandboxes open or --auth off).
 */
async function create(
  url: string,
  credentials: { client_id: string; client_secret: string } | undefined,
  attributes: object,
): Promise<{ sandbox: Sandbox; creator?: typeof credentials } | { problem: string }> {
  const body = { data: { type: 'sandboxes', attributes } };
  const refusals: string[] = [];
  if (credentials) {
    const token = await clientToken(url, credentials.client_id, credentials.client_secret);
    if (token.problem === undefined) {
      const res = await call(`${url}/v1/simulator/sandboxes`, 'POST', token.token, body);
      if (res.status === 201) return { sandbox: (res.json as { data: Sandbox }).data, creator: credentials };
      if (res.status === 404 || res.status === 405)
        return { problem: `${NO_SANDBOXES} (POST /v1/simulator/sandboxes answered ${res.status})` };
      if (res.status !== 401 && res.status !== 403)
        return { problem: `CONFORMANCE_SANDBOX=new: the target refused to create a sandbox: ${messageOf(res)}` };
      refusals.push(`as client ${credentials.client_id}: ${messageOf(res)}`);
    } else refusals.push(`as client ${credentials.client_id}: ${token.problem}`);
  }
  const res = await call(`${url}/v1/simulator/sandboxes`, 'POST', undefined, body);
  if (res.status === 201) return { sandbox: (res.json as { data: Sandbox }).data };
  if (res.status === 404 || res.status === 405)
    return { problem: `${NO_SANDBOXES} (POST /v1/simulator/sandboxes answered ${res.status})` };
  refusals.push(`without credentials: ${messageOf(res)}`);
  return {
    problem: `CONFORMANCE_SANDBOX=new: the target refused to create a sandbox (${refusals.join('; ')}); configure a client that is an admin of its default sandbox, or start the server with --sandboxes open`,
  };
}

/** Reads an existing sandbox, as the configured client (a default-sandbox admin or one of its own), else with none. */
async function read(
  url: string,
  id: string,
  credentials: { client_id: string; client_secret: string } | undefined,
): Promise<{ sandbox: Sandbox } | { problem: string }> {
  let token: string | undefined;
  if (credentials) {
    // A client of the sandbox gets its token under the sandbox's prefix; a default-sandbox admin at the root.
    for (const base of [url, `${url}/sandboxes/${id}`]) {
      const t = await clientToken(base, credentials.client_id, credentials.client_secret);
      if (t.problem === undefined) {
        token = t.token;
        break;
      }
    }
  }
  const res = await call(`${url}/v1/simulator/sandboxes/${id}`, 'GET', token);
  if (res.status === 200) return { sandbox: (res.json as { data: Sandbox }).data };
  if (res.status === 404) {
    const list = await call(`${url}/v1/simulator/sandboxes`, 'GET', token);
    if (list.status === 404 || list.status === 405)
      return { problem: `${NO_SANDBOXES} (GET /v1/simulator/sandboxes answered ${list.status})` };
    return {
      problem: `CONFORMANCE_SANDBOX ${id}: the target has no such sandbox (it may have expired or been deleted): ${messageOf(res)}`,
    };
  }
  return {
    problem: `CONFORMANCE_SANDBOX ${id}: the target refused to show the sandbox: ${messageOf(res)}; configure a client of that sandbox or an admin of the default one`,
  };
}

/** The sandbox's client of an organisation, else undefined. */
function clientOf(sandbox: Sandbox, organisation: string | undefined): SandboxClient | undefined {
  return organisation ? sandbox.attributes.clients?.find((c) => c.organisation_id === organisation) : undefined;
}

/**
 * The key ids of the sandbox's client that may stand for a key id configured for the default
 * sandbox: the sandbox copies each client's public keys under ids of its own, in order. The
 * configured id itself when the client has it (a named sandbox's own), else each of its keys.
 */
function keyIdsFor(client: SandboxClient, configured: string): string[] {
  const ids = client.key_ids ?? [];
  return ids.includes(configured) ? [configured] : ids;
}

/** A setting that names a key id, and the sandbox's key ids it may be; the preflight tries each (enterSandbox). */
export interface KeyChoice {
  setting: 'CONFORMANCE_SIGNING_KEY_ID' | 'CONFORMANCE_COP_SIGNING_KID';
  candidates: string[];
}

/**
 * The settings of the run in the sandbox, over the configured ones: its clients in place of the
 * configured ones. The run acts as the sandbox's client of the configured organisation
 * (CONFORMANCE_ORGANISATION_ID) if it has one, else as its first client (its admin); the second
 * organisation (CONFORMANCE_OTHER_*) likewise. A client configured that is the sandbox's own (a
 * named sandbox) is kept as it is. A key id configured (request signing, the name verification
 * requester) becomes the sandbox's id of that key: `choose` lists those with more than one candidate.
 */
export function sandboxSettings(
  target: 'sim' | 'staging',
  settings: Settings,
  run: Pick<SandboxRun, 'sandbox'>,
): { settings: Settings; choose: KeyChoice[]; problem?: undefined } | { problem: string } {
  const { sandbox } = run;
  const clients = sandbox.attributes.clients ?? [];
  const first = clients[0];
  if (!first) return { problem: `the sandbox ${sandbox.id} has no client to run as` };
  const out: Settings = {};
  const choose: KeyChoice[] = [];
  const keyOf = (client: SandboxClient, setting: KeyChoice['setting'], configured: string): string | undefined => {
    const candidates = keyIdsFor(client, configured);
    if (candidates.length > 1) choose.push({ setting, candidates });
    return candidates[0];
  };
  if (target === 'sim') {
    const admin = clients.find((c) => c.role === 'admin') ?? first;
    if (!admin.client_secret) return { problem: `the sandbox ${sandbox.id} did not give its client's secret` };
    out.SIM_CLIENT_ID = admin.client_id;
    out.SIM_CLIENT_SECRET = admin.client_secret;
    // The requester the simulator knows: the bundled development key, which the sandbox's copy of
    // northwind-dev holds under an id of its own (its first key, as fixtures/clients.json's).
    const northwind = clients.find((c) => c.organisation_id === FIXTURE_CLIENTS.northwind!.organisation_id);
    if (!settings.CONFORMANCE_COP_SIGNING_KEY && !settings.CONFORMANCE_COP_SIGNING_KID && northwind?.key_ids?.[0]) {
      out.CONFORMANCE_COP_SIGNING_KEY = BUNDLED_KEY_FILE;
      out.CONFORMANCE_COP_SIGNING_KID = northwind.key_ids[0];
      out.CONFORMANCE_COP_SIGNING_ISS = BUNDLED_ISS;
    } else if (settings.CONFORMANCE_COP_SIGNING_KID) {
      const kid = keyOf(admin, 'CONFORMANCE_COP_SIGNING_KID', settings.CONFORMANCE_COP_SIGNING_KID);
      if (kid) out.CONFORMANCE_COP_SIGNING_KID = kid;
    }
    return { settings: out, choose };
  }
  const own = clients.find((c) => c.client_id === settings.CONFORMANCE_CLIENT_ID);
  if (!own) {
    const main = clientOf(sandbox, settings.CONFORMANCE_ORGANISATION_ID) ?? first;
    if (!main.client_secret) return { problem: `the sandbox ${sandbox.id} did not give its client's secret` };
    out.CONFORMANCE_CLIENT_ID = main.client_id;
    out.CONFORMANCE_CLIENT_SECRET = main.client_secret;
    out.CONFORMANCE_ORGANISATION_ID = main.organisation_id;
    if (settings.CONFORMANCE_SIGNING_KEY_ID && settings.CONFORMANCE_SIGNING_KEY) {
      const kid = keyOf(main, 'CONFORMANCE_SIGNING_KEY_ID', settings.CONFORMANCE_SIGNING_KEY_ID);
      if (!kid)
        return {
          problem: `CONFORMANCE_SIGNING_KEY_ID: the sandbox's client ${main.client_id} has no public key to sign with; unset CONFORMANCE_SIGNING_KEY_ID`,
        };
      out.CONFORMANCE_SIGNING_KEY_ID = kid;
    }
    if (settings.CONFORMANCE_COP_SIGNING_KID) {
      const kid = keyOf(main, 'CONFORMANCE_COP_SIGNING_KID', settings.CONFORMANCE_COP_SIGNING_KID);
      if (kid) out.CONFORMANCE_COP_SIGNING_KID = kid;
    }
  }
  if (
    settings.CONFORMANCE_OTHER_CLIENT_ID &&
    !clients.some((c) => c.client_id === settings.CONFORMANCE_OTHER_CLIENT_ID)
  ) {
    const main = out.CONFORMANCE_ORGANISATION_ID ?? settings.CONFORMANCE_ORGANISATION_ID;
    const other =
      clientOf(sandbox, settings.CONFORMANCE_OTHER_ORGANISATION_ID) ?? clients.find((c) => c.organisation_id !== main);
    if (!other?.client_secret)
      return {
        problem: `CONFORMANCE_OTHER_CLIENT_ID: the sandbox ${sandbox.id} has no client of a second organisation; unset CONFORMANCE_OTHER_*`,
      };
    out.CONFORMANCE_OTHER_CLIENT_ID = other.client_id;
    out.CONFORMANCE_OTHER_CLIENT_SECRET = other.client_secret;
    out.CONFORMANCE_OTHER_ORGANISATION_ID = other.organisation_id;
  }
  return { settings: out, choose };
}

/**
 * The sim target's clients in the sandbox: each fixture client's organisation's client there
 * (Northwind, Harbour, Fenwick are copied with new ids and secrets), the default its admin.
 */
export function sandboxSimClients(run: SandboxRun): Record<string, TargetClient> {
  const clients = run.sandbox.attributes.clients ?? [];
  const out: Record<string, TargetClient> = {};
  for (const [name, fixture] of Object.entries(FIXTURE_CLIENTS)) {
    const c = clients.find((s) => s.organisation_id === fixture.organisation_id);
    if (c?.client_secret)
      out[name] = {
        ...fixture,
        client_id: c.client_id,
        uuid: c.client_id,
        client_secret: c.client_secret,
        organisation_id: c.organisation_id,
      };
  }
  return out;
}

/**
 * Finds or creates the run's sandbox (CONFORMANCE_SANDBOX) and rewrites the run's settings to it,
 * in `env` (where the steps read them) and in the settings it resolves to; or one line naming the
 * problem. Without CONFORMANCE_SANDBOX, or in process, the settings are as they were.
 */
export async function enterSandbox(
  target: string,
  settings: Settings,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ settings: Settings; problem?: undefined } | { problem: string }> {
  if (target !== 'sim' && target !== 'staging') return { settings }; // in process: nothing changes
  let wanted: string | undefined;
  let attributes: object | undefined;
  try {
    wanted = sandboxSetting(settings);
    if (wanted === 'new') attributes = sandboxAttributes(target, settings);
  } catch (err) {
    return { problem: (err as Error).message };
  }
  if (!wanted) return { settings };
  const { url, urlSetting, credentials } = targetOf(target, settings);
  if (/\/sandboxes\/[^/]+$/.test(url))
    return {
      problem: `${urlSetting} ${url} already names a sandbox; with CONFORMANCE_SANDBOX give the server's own URL, or unset CONFORMANCE_SANDBOX`,
    };
  let found: Awaited<ReturnType<typeof create>>;
  try {
    found = attributes ? await create(url, credentials, attributes) : await read(url, wanted, credentials);
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return { problem: `cannot reach ${url}: ${cause?.code ?? (err as Error).message}` };
  }
  if ('problem' in found) return found;
  const { sandbox } = found;
  const prefix = sandbox.attributes.path_prefix ?? `/sandboxes/${sandbox.id}`;
  const run: SandboxRun = {
    sandbox,
    serverUrl: url,
    address: `${url}${prefix}`,
    created: wanted === 'new',
    ...(found.creator ? { creator: found.creator } : {}),
  };
  current = run;
  const rewritten = sandboxSettings(target, settings, run);
  if (rewritten.problem !== undefined) return rewritten;
  const merged = { ...settings, ...rewritten.settings };
  for (const choice of rewritten.choose) {
    const kid = await workingKeyId(target, merged, url, choice);
    if (kid) merged[choice.setting] = rewritten.settings[choice.setting] = kid;
  }
  for (const [k, v] of Object.entries(rewritten.settings)) if (v !== undefined) env[k] = v;
  process.stderr.write(
    `conformance: ${run.created ? 'created sandbox' : 'in sandbox'} ${sandbox.id} at ${run.address}${
      run.created ? `; deleted after the run (else it expires at ${sandbox.attributes.expires_at})` : ''
    }\n`,
  );
  return { settings: merged };
}

/**
 * The one of a client's key ids in the sandbox that its configured private key signs for: each is
 * tried with a request that reads nothing and leaves nothing (a signed list of one account; a
 * name verification with an empty body, refused before any account is read). Undefined: none
 * answered as the key's own, and the preflight's own checks name the setting.
 */
async function workingKeyId(
  target: 'sim' | 'staging',
  s: Settings,
  url: string,
  choice: KeyChoice,
): Promise<string | undefined> {
  const [id, secret] =
    target === 'sim'
      ? [s.SIM_CLIENT_ID!, s.SIM_CLIENT_SECRET!]
      : [s.CONFORMANCE_CLIENT_ID!, s.CONFORMANCE_CLIENT_SECRET];
  for (const kid of choice.candidates) {
    try {
      if (choice.setting === 'CONFORMANCE_SIGNING_KEY_ID') {
        const key = createPrivateKey(readFileSync(s.CONFORMANCE_SIGNING_KEY!));
        const at = new URL(`${url}/v1/organisation/accounts?page[size]=1`);
        const res = await fetch(at, { headers: form3SignedHeaders(at, 'GET', undefined, kid, key) });
        await res.arrayBuffer();
        if (res.status === 200) return kid;
        continue;
      }
      const token = secret ? (await clientToken(url, id, secret)).token : undefined;
      const requester = requesterFromSettings({ ...s, CONFORMANCE_COP_SIGNING_KID: kid });
      if (!token || !requester) return undefined;
      const participant = target === 'sim' ? FIXTURE_COP.participant : s.CONFORMANCE_COP_PARTICIPANT_ID!;
      const body = '{}';
      const res = await fetch(`${url}/v1/participants/${participant}/open-banking/v3.1/accounts/name-verification`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-fapi-financial-id': participant,
          'x-jws-signature': await signCopRequest(body, requester.key, {
            kid,
            iss: requester.iss,
            profile: requester.profile,
            iat: Math.floor(Date.now() / 1000) - 1,
          }),
        },
        body,
      });
      if (!(await res.text()).includes('UK.OBIE.Signature.')) return kid;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/**
 * Deletes the sandbox the run created (a named one is left as it is): as the sandbox's admin, else
 * as the client that created it. Resolves to the problem, or undefined.
 */
export async function leaveSandbox(): Promise<string | undefined> {
  const run = current;
  current = undefined;
  if (!run?.created) return undefined;
  const { id } = run.sandbox;
  const admin = (run.sandbox.attributes.clients ?? []).find((c) => c.role === 'admin');
  const attempts: Array<() => Promise<string | undefined>> = [];
  // Its admin may delete it whoever created it; else the creator (a default-sandbox admin); else no one (--auth off).
  if (admin?.client_secret)
    attempts.push(async () => (await clientToken(run.serverUrl, admin.client_id, admin.client_secret!)).token);
  if (run.creator)
    attempts.push(
      async () => (await clientToken(run.serverUrl, run.creator!.client_id, run.creator!.client_secret)).token,
    );
  attempts.push(async () => undefined);
  const refusals: string[] = [];
  for (const tokenOf of attempts) {
    try {
      const res = await call(`${run.serverUrl}/v1/simulator/sandboxes/${id}`, 'DELETE', await tokenOf());
      if (res.status === 204 || res.status === 404) return undefined;
      refusals.push(messageOf(res));
    } catch (err) {
      refusals.push((err as Error).message);
    }
  }
  return `the sandbox ${id} this run created could not be deleted (${refusals.join('; ')}); it expires at ${run.sandbox.attributes.expires_at}`;
}
