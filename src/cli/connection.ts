import { type ParseArgsConfig, parseArgs } from 'node:util';
import { readProfile } from './profile.ts';

/** A failure to report on stderr with exit code 1 (no stack: the message says it all). */
export class CliError extends Error {}

/** A mistake in the command line (exit 2), as against a refusal by the simulator (exit 1). */
export class UsageError extends CliError {}

/** The options every command that talks to a running simulator takes. */
export const CONNECTION = {
  url: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** fetch, with an unreachable simulator as a CliError naming the URL. */
export async function request(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(`cannot reach ${url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
}

/** The Authorization header of a client's token (none without credentials: a server run with --auth off). */
async function bearer(
  base: string,
  id: string | undefined,
  secret: string | undefined,
): Promise<Record<string, string>> {
  if (!id && !secret) return {};
  if (!id || !secret)
    throw new CliError(
      'give both a client id and a client secret (--client-id/--client-secret or SCHEME_SIM_CLIENT_ID/SCHEME_SIM_CLIENT_SECRET)',
    );
  const res = await request(`${base}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: string; error_message?: string };
  if (res.status !== 200 || !body.access_token)
    throw new CliError(`token request failed: ${res.status} ${body.error_message ?? ''}`.trim());
  return { authorization: `Bearer ${body.access_token}` };
}

/** The simulator a command talks to and the headers it sends: from the flags, else the environment. */
export async function connect(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
): Promise<{ base: string; auth: Record<string, string> }> {
  // Flags, then the environment, then the profile the running simulator wrote (src/cli/profile.ts).
  const profile = readProfile(env);
  const base = String(values.url ?? env.SCHEME_SIM_URL ?? profile?.url ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  if (!/^https?:\/\/./.test(base)) throw new CliError(`--url must be an http(s) URL, got '${base}'`);
  const given = values['client-id'] ?? env.SCHEME_SIM_CLIENT_ID;
  // The profile's credentials are those of the simulator that wrote it, never sent elsewhere.
  const own = profile && profile.url.replace(/\/+$/, '') === base ? profile : undefined;
  const auth = await bearer(
    base,
    (given as string | undefined) ?? own?.client_id,
    (values['client-secret'] as string | undefined) ??
      env.SCHEME_SIM_CLIENT_SECRET ??
      (given === undefined ? own?.client_secret : undefined),
  );
  return { base, auth };
}

/** parseArgs with the command's options and its help: a mistake in the command line is a UsageError. */
export function parseCommand<O extends ParseArgsConfig['options']>(
  argv: string[],
  options: O,
  help: string,
  allowPositionals = false,
): { values: Record<string, unknown>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals });
    return { values: values as Record<string, unknown>, positionals };
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${help}`);
  }
}

/** The JSON answer of a request; a status of 300 or more is a CliError with the simulator's message. */
export async function readAnswer<T = { data?: unknown; error_message?: string }>(res: Response): Promise<T> {
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // not JSON (a proxy's page): the text is the message
  }
  if (res.status >= 300) throw new CliError(`${res.status}: ${(json.error_message as string | undefined) ?? text}`);
  return json as T;
}
