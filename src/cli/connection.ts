// Which simulator a command talks to, as whom, and how it says so. The target comes from --url,
// else SCHEME_SIM_URL, else a profile a running simulator wrote (src/cli/profile.ts); every command
// names it and its source on stderr before the first request, so a command never talks to another
// simulator than the user thinks without saying which.
import { connect as tcpConnect } from 'node:net';
import { TOOL_HEADER } from '../api/request-journal.ts';
import { CliError } from './cli-errors.ts';
import { readEvents } from './event-stream.ts';
import { chosenProfile, normalUrl, type ProfileFile, profileOf, shortPath } from './profile.ts';

/** The options every command that talks to a running simulator takes. */
export const CONNECTION = {
  url: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The connection options' help, shared by the commands' help texts. */
export const CONNECTION_HELP = `  --url URL, --client-id ID, --client-secret S   the simulator and client (env SCHEME_SIM_URL,
                    SCHEME_SIM_CLIENT_ID, SCHEME_SIM_CLIENT_SECRET; else a profile a running
                    simulator wrote, SCHEME_SIM_PROFILE or ~/.scheme-sim/profiles/)
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

/** The simulator a command talks to: --url, SCHEME_SIM_URL, a profile, or the default. */
export function resolveTarget(values: Record<string, unknown>, env: Env, cwd = process.cwd()): Target {
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

/** A connected command: the simulator, the headers it sends, and fetch with its errors in words. */
export interface Connection {
  base: string;
  auth: Record<string, string>;
  target: Target;
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
): Promise<Connection> {
  const target = resolveTarget(values, env);
  const own = target.own?.profile;
  const flagId = values['client-id'] as string | undefined;
  const envId = env.SCHEME_SIM_CLIENT_ID || undefined;
  const id = flagId ?? envId ?? own?.client_id;
  const idSource =
    flagId !== undefined
      ? '--client-id'
      : envId !== undefined
        ? 'SCHEME_SIM_CLIENT_ID'
        : own?.client_id
          ? `profile ${shortPath(target.own!.file, env)}`
          : undefined;
  // The profile's secret goes with the profile's id only, and only to the simulator that wrote it.
  const secret =
    (values['client-secret'] as string | undefined) ??
    (env.SCHEME_SIM_CLIENT_SECRET || undefined) ??
    (flagId === undefined && envId === undefined ? own?.client_secret : undefined);
  note(`scheme-sim: ${target.base} (from ${target.source})${id ? `, client ${id} (from ${idSource})` : ', no client'}`);
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
    base: target.base,
    auth,
    target,
    request: (path, init = {}) =>
      send(/^https?:/.test(path) ? path : `${target.base}${path}`, {
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
        ? ' (a client is needed: set SCHEME_SIM_CLIENT_ID and SCHEME_SIM_CLIENT_SECRET, or pass --client-id and --client-secret)'
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
    try {
      const claims = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'));
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
