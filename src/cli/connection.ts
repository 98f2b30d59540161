// Which simulator a command talks to, as whom, and how it says so. The target comes from --url,
// else SCHEME_SIM_URL, else a profile a running simulator wrote (src/cli/profile.ts); every command
// names it and its source on stderr before the first request, so a command never talks to another
// simulator than the user thinks without saying which. --sandbox ID (or SCHEME_SIM_SANDBOX) picks
// one sandbox of that simulator: as the client `scheme-sim sandbox create` saved for it, else by its
// path prefix (/sandboxes/ID/v1/...), the way a simulator run with --auth off tells sandboxes apart.
import { connect as tcpConnect } from 'node:net';
import { TOOL_HEADER } from '../api/journal/request-journal.ts';
import { CliError, UsageError } from './cli-errors.ts';
import { readEvents } from './event-stream.ts';
import {
  chosenProfile,
  normalUrl,
  type ProfileFile,
  profileOf,
  readSandboxProfile,
  type SandboxProfile,
  shortPath,
} from './profile.ts';

/** The options every command that talks to a running simulator takes. */
export const CONNECTION = {
  url: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  sandbox: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The connection options' help, shared by the commands' help texts. */
export const CONNECTION_HELP = `  --url URL, --client-id ID, --client-secret S   the simulator and client (env SCHEME_SIM_URL,
                    SCHEME_SIM_CLIENT_ID, SCHEME_SIM_CLIENT_SECRET; else a profile a running
                    simulator wrote, SCHEME_SIM_PROFILE or ~/.scheme-sim/profiles/)
  --sandbox ID      a sandbox of that simulator (env SCHEME_SIM_SANDBOX): as the client
                    scheme-sim sandbox create saved for it, else by its path /sandboxes/ID
  --json            print the answer as JSON (the target line stays on stderr)
  -h, --help        this help`;

type Env = Record<string, string | undefined>;

/** Where a command's simulator comes from. */
export interface Target {
  base: string;
  /** `--url`, `SCHEME_SIM_URL`, `profile ~/.scheme-sim/profiles/…` or the default. */
  source: string;
  /** The profile that named it (only then is an unreachable simulator a stale profile). */
  chosen?: ProfileFile;
  /** The profile the simulator at `base` wrote, whose credentials may be sent to it. */
  own?: ProfileFile;
}

const DEFAULT_URL = 'http://127.0.0.1:8080';

/** The simulator a command talks to: --url, SCHEME_SIM_URL, the sandbox's or a simulator's profile, or the default. */
export function resolveTarget(
  values: Record<string, unknown>,
  env: Env,
  cwd = process.cwd(),
  sandbox?: ProfileFile<SandboxProfile>,
): Target {
  const given = (values.url as string | undefined) ?? env.SCHEME_SIM_URL;
  if (given !== undefined && given !== '') {
    const base = normalUrl(given);
    if (!/^https?:\/\/[^/]/.test(base))
      throw new CliError(
        `${values.url !== undefined ? '--url' : 'SCHEME_SIM_URL'} must be an http(s) URL, got '${given}'`,
      );
    const own = profileOf(base, env);
    return { base, source: values.url !== undefined ? '--url' : 'SCHEME_SIM_URL', ...(own ? { own } : {}) };
  }
  if (sandbox) {
    const base = normalUrl(sandbox.profile.url);
    const own = profileOf(base, env);
    return { base, source: `sandbox profile ${shortPath(sandbox.file, env)}`, ...(own ? { own } : {}) };
  }
  const chosen = chosenProfile(env, cwd);
  if (!chosen) return { base: DEFAULT_URL, source: 'the default: no --url, SCHEME_SIM_URL or profile' };
  const others = chosen.others.length
    ? `; also ${chosen.others.map((o) => o.profile.url).join(', ')}: --url picks one`
    : '';
  const chosenFile = { file: chosen.file, profile: chosen.profile };
  return {
    base: normalUrl(chosen.profile.url),
    source: `profile ${shortPath(chosen.file, env)}, ${chosen.why}${others}`,
    chosen: chosenFile,
    own: chosenFile,
  };
}

/** Whether anything accepts a TCP connection at the URL's host and port (no HTTP, so no journal). */
export function listening(url: string, timeoutMs = 1500): Promise<boolean> {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: u.hostname.replace(/^\[|\]$/g, ''), port });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The command that starts a simulator at `url` again. */
function startAgain(url: string): string {
  const u = new URL(url);
  const host = u.hostname === '127.0.0.1' ? '' : ` --host ${u.hostname}`;
  return `scheme-sim start --port ${u.port || 80}${host}`;
}

/** The one line an unreachable target gets: a stale profile names itself and how to fix it. */
export function unreachable(target: Target, url: string, err: unknown, env: Env = process.env): CliError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? cause?.message ?? (err as Error).message;
  if (target.chosen && code === 'ECONNREFUSED')
    return new CliError(
      `stale profile ${shortPath(target.chosen.file, env)}: nothing listens at ${target.base}; start it again (${startAgain(target.base)}), or remove stale profiles (scheme-sim profiles --prune), or pass --url`,
    );
  const hint =
    code === 'ECONNREFUSED'
      ? target.source.startsWith('the default')
        ? '; nothing listens there: start one (npm start), or pass --url'
        : '; nothing listens there'
      : '';
  return new CliError(`cannot reach ${url} (from ${target.source}): ${code}${hint}`);
}

/** The sandbox a command addresses, and where its id came from. */
export interface SandboxChoice {
  id: string;
  /** `--sandbox` or `SCHEME_SIM_SANDBOX`. */
  source: string;
  /** What `scheme-sim sandbox create` saved of it, if anything. */
  saved?: ProfileFile<SandboxProfile>;
}

/** A sandbox id is a UUID; anything safe in a path and a file name passes here, the simulator judges. */
export const SANDBOX_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * The sandbox of --sandbox, else SCHEME_SIM_SANDBOX; none (the simulator's own world) without
 * either or for `default`, the id of that world.
 */
export function chosenSandbox(values: Record<string, unknown>, env: Env): SandboxChoice | undefined {
  const flag = values.sandbox as string | undefined;
  const id = flag ?? (env.SCHEME_SIM_SANDBOX || undefined);
  if (id === undefined || id === 'default') return undefined;
  const source = flag !== undefined ? '--sandbox' : 'SCHEME_SIM_SANDBOX';
  if (!SANDBOX_ID.test(id))
    throw new UsageError(`${source} must be a sandbox id (scheme-sim sandbox list shows them), got '${id}'`);
  const saved = readSandboxProfile(id, env);
  return { id, source, ...(saved ? { saved } : {}) };
}

/** The sandbox `scheme-sim sandbox show|delete ID` manages: its saved profile names its simulator. */
function managed(id: string | undefined, env: Env): SandboxChoice | undefined {
  if (id === undefined) return undefined;
  const saved = readSandboxProfile(id, env);
  return { id, source: 'the argument', ...(saved ? { saved } : {}) };
}

/** A connected command: the simulator, the headers it sends, and fetch with its errors in words. */
export interface Connection {
  /** Where its requests go: the simulator's URL, with /sandboxes/ID when a sandbox is reached by path. */
  base: string;
  auth: Record<string, string>;
  /** The client it authenticates as (none without credentials): `scheme-sim replay` asks for tokens as it. */
  client?: { id: string; secret: string };
  target: Target;
  /** The sandbox it addresses (none: the simulator's own world). */
  sandbox?: string;
  /** fetch of a path (or a link the simulator gave) on the target; unreachable → CliError. */
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** Writes a line on stderr: where commands say what they target, out of their --json output. */
const stderrLine = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/**
 * The simulator a command talks to and the headers it sends: flags, then the environment, then a
 * profile. Says on `note` (stderr) which simulator, from where, and as which client.
 */
export async function connect(
  values: Record<string, unknown>,
  env: Env,
  note: (line: string) => void = stderrLine,
  manage?: { sandbox?: string; ownWorld?: boolean },
): Promise<Connection> {
  // `manage`: the sandboxes' own routes (scheme-sim sandbox), which belong to the simulator's own
  // world: no --sandbox; a sandbox's saved client (its admin) only for that sandbox's routes, else
  // the client of the simulator's own world (`ownWorld`: that one only), on the simulator the sandbox
  // was made on.
  const sandbox = manage ? managed(manage.sandbox, env) : chosenSandbox(values, env);
  const saved = sandbox?.saved;
  const expires = saved?.profile.expires_at;
  const expired = expires !== undefined && Date.parse(expires) <= Date.now();
  if (saved && expired && !manage)
    throw new CliError(
      `sandbox ${sandbox.id} (from ${sandbox.source}) expired at ${expires}; scheme-sim sandbox delete ${sandbox.id} removes its profile ${shortPath(saved.file, env)}`,
    );
  const target = resolveTarget(values, env, undefined, saved);
  const flagId = values['client-id'] as string | undefined;
  const flagSecret = values['client-secret'] as string | undefined;
  const envId = env.SCHEME_SIM_CLIENT_ID || undefined;
  // A sandbox's saved client goes to the simulator it was made on only, and comes before
  // SCHEME_SIM_CLIENT_ID (most likely a client of the simulator's own world); flags come first.
  const savedClient =
    saved?.profile.client_id && normalUrl(saved.profile.url) === target.base && !expired && !manage?.ownWorld
      ? saved
      : undefined;
  const asSaved = savedClient !== undefined && flagId === undefined && flagSecret === undefined;
  // The simulator's own profile lends its client to its own world only.
  const own = sandbox && !manage ? undefined : target.own?.profile;
  let id: string | undefined;
  let secret: string | undefined;
  let idSource: string | undefined;
  if (asSaved) {
    id = savedClient.profile.client_id;
    secret = savedClient.profile.client_secret;
    idSource = `sandbox profile ${shortPath(savedClient.file, env)}`;
  } else {
    id = flagId ?? envId ?? own?.client_id;
    idSource =
      flagId !== undefined
        ? '--client-id'
        : envId !== undefined
          ? 'SCHEME_SIM_CLIENT_ID'
          : own?.client_id
            ? `profile ${shortPath(target.own!.file, env)}`
            : undefined;
    // The profile's secret goes with the profile's id only, and only to the simulator that wrote it.
    secret =
      flagSecret ??
      (env.SCHEME_SIM_CLIENT_SECRET || undefined) ??
      (flagId === undefined && envId === undefined ? own?.client_secret : undefined);
  }
  // Without its saved client a sandbox is reached by its path prefix (a token of it, given as
  // flags or SCHEME_SIM_CLIENT_ID, is accepted there too).
  const byPath = sandbox !== undefined && !asSaved && !manage;
  const base = byPath ? `${target.base}/sandboxes/${sandbox.id}` : target.base;
  const sandboxNote =
    sandbox && !manage
      ? `, sandbox ${sandbox.id} (from ${sandbox.source}${
          byPath
            ? saved?.profile.client_id && !savedClient
              ? `; its saved client is for ${saved.profile.url}, not sent here: by its path`
              : '; by its path'
            : ''
        })`
      : '';
  note(
    `scheme-sim: ${base} (from ${target.source})${sandboxNote}${id ? `, client ${id} (from ${idSource})` : ', no client'}`,
  );
  // Every request names the CLI: the journal keeps its reads out of sight unless asked.
  const send = async (url: string, init: RequestInit = {}) => {
    try {
      return await fetch(url, { ...init, headers: { [TOOL_HEADER]: 'cli', ...(init.headers as object) } });
    } catch (err) {
      throw unreachable(target, url, err, env);
    }
  };
  const auth = await bearer(target.base, send, id, secret, idSource);
  return {
    base,
    auth,
    ...(id && secret ? { client: { id, secret } } : {}),
    target,
    ...(sandbox ? { sandbox: sandbox.id } : {}),
    request: (path, init = {}) =>
      send(/^https?:/.test(path) ? path : `${base}${path}`, {
        ...init,
        headers: { ...auth, ...(init.headers as object) },
      }),
  };
}

/** The Authorization header of a client's token (none without credentials: a server run with --auth off). */
async function bearer(
  base: string,
  send: (url: string, init: RequestInit) => Promise<Response>,
  id: string | undefined,
  secret: string | undefined,
  idSource: string | undefined,
): Promise<Record<string, string>> {
  if (!id && !secret) return {};
  if (!id || !secret)
    throw new CliError(
      `give both a client id and a client secret (${id ? `client id ${id} from ${idSource}, no secret` : 'a secret but no client id'}; --client-id/--client-secret or SCHEME_SIM_CLIENT_ID/SCHEME_SIM_CLIENT_SECRET)`,
    );
  const url = `${base}/v1/oauth2/token`;
  const res = await send(url, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: string; error_message?: string };
  if (res.status !== 200 || !body.access_token)
    throw new CliError(
      `token request to ${url} failed: ${res.status}${body.error_message ? ` ${body.error_message}` : ''} (client id ${id} from ${idSource})`,
    );
  return { authorization: `Bearer ${body.access_token}` };
}

/** The JSON answer of a request; a status of 300 or more is a CliError with the simulator's message. */
export async function readAnswer<T = { data?: unknown; error_message?: string }>(
  res: Response,
  conn?: Connection,
): Promise<T> {
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // not JSON (a proxy's page): the text is the message
  }
  if (res.status >= 300) {
    // A 401 to a command that sent no token: say where a client comes from.
    const hint =
      res.status === 401 && conn && !conn.auth.authorization
        ? conn.sandbox
          ? ` (a client of sandbox ${conn.sandbox} is needed: none is saved for it here (scheme-sim sandbox create saves one); pass --client-id and --client-secret)`
          : ' (a client is needed: set SCHEME_SIM_CLIENT_ID and SCHEME_SIM_CLIENT_SECRET, or pass --client-id and --client-secret)'
        : '';
    throw new CliError(`${res.status}: ${(json.error_message as string | undefined) ?? text}${hint}`);
  }
  return json as T;
}

/**
 * The caller's organisation: the claim of the token (scheme-sim's tokens are `<claims>.<hmac>`, the
 * claims base64url JSON naming it); without a token (--auth off), the organisation the simulator's
 * live log names when followed.
 */
export async function organisationOf(conn: Connection): Promise<string> {
  const token = conn.auth.authorization?.split(' ')[1];
  if (token) {
    // A sandbox's token is `sbx_<sandbox>.<claims>.<hmac>`.
    const parts = token.split('.');
    const body = parts[0]?.startsWith('sbx_') ? parts[1] : parts[0];
    try {
      const claims = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8'));
      if (typeof claims.organisation_id === 'string') return claims.organisation_id;
    } catch {
      // not scheme-sim's token form: ask the simulator
    }
  }
  const stop = new AbortController();
  const res = await conn.request('/v1/simulator/stream?filter[kind]=reset', {
    headers: { accept: 'text/event-stream' },
    signal: stop.signal,
  });
  if (res.status !== 200) await readAnswer(res, conn);
  try {
    for await (const e of readEvents(res)) {
      if (e.event !== 'ready') continue;
      const org = (JSON.parse(e.data) as { organisation_id?: string }).organisation_id;
      if (org) return org;
    }
  } finally {
    stop.abort();
  }
  throw new CliError(`cannot tell the organisation of these credentials at ${conn.base}`);
}
