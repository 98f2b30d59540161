// `scheme-sim sandbox ...`: isolated worlds on one running simulator (/v1/simulator/sandboxes,
// docs/sandboxes.md). `create` makes one and saves its first client in a profile
// (~/.scheme-sim/sandboxes/ID.json) that every other command's --sandbox ID reads
// (src/cli/connection.ts), and prints the `export` lines Form3's Go SDK and this CLI read.

import { TOOL_HEADER } from '../api/journal/request-journal.ts';
import { isSupportedInstant, SUPPORTED_RANGE } from '../clock/dates.ts';
import { MAX_SPEED } from '../clock/scheme-clock.ts';
import type { Answer } from './api-commands.ts';
import { CliError } from './cli-errors.ts';
import { CONNECTION, type Connection, connect, readAnswer, SANDBOX_ID } from './connection.ts';
import { readSandboxProfile, removeSandboxProfile, shortPath, writeSandboxProfile } from './profile.ts';
import { parseCommand, unknownSubcommand, usageError } from './usage.ts';

export const SANDBOX_HELP = `Usage: scheme-sim sandbox create [--seed fixtures|none] [--clock frozen|running]
                              [--clock-start ISO] [--clock-speed N] [--expires-in DURATION]
                              [--strict] [--cop-strict]
       scheme-sim sandbox list
       scheme-sim sandbox show ID
       scheme-sim sandbox delete ID

A sandbox is a whole simulated world on a running simulator (its own scheme clock, records,
clients, subscriptions, faults, request journal and settings), gone when it expires or is deleted.
  create   makes one and prints its id, expiry, clock and clients (id, secret, organisation, role,
           key ids), then export lines for a shell: FORM3_HOST, FORM3_CLIENT_ID,
           FORM3_CLIENT_SECRET, FORM3_ORGANISATION_ID, FORM3_PUBLIC_KEY_ID (as Form3's Go SDK reads
           them) and SCHEME_SIM_SANDBOX. It saves the sandbox's first client in
           ~/.scheme-sim/sandboxes/ID.json: any command then reaches the sandbox with --sandbox ID
           (or SCHEME_SIM_SANDBOX=ID), e.g. scheme-sim clock advance --days 1 --sandbox ID.
    --seed fixtures|none        open the fixture accounts and seed payments in it (default fixtures)
    --clock frozen|running      its scheme clock (default: the simulator's choice)
    --clock-start ISO           where the clock starts, e.g. 2026-12-21T09:00:00Z
    --clock-speed N             virtual seconds per wall second of a running clock
    --expires-in DURATION       its lifetime: 30m, 2h, 7d or 1h30m (1m to 30d; default 24h)
    --strict, --cop-strict      the settings of scheme-sim start's --strict and --cop-strict
  list     the live sandboxes (without secrets); "saved" marks those with a profile here
  show     one sandbox, with its clients' secrets and export lines
  delete   deletes it (its admin, or an admin of the simulator's own world) and its saved profile

  --url URL, --client-id ID, --client-secret S   the simulator and a client of its own world (as for
                    scheme-sim clock); show and delete use the sandbox's saved client when they have one
  --json            print the answer as JSON (the profile's path then goes to stderr)
  -h, --help        this help`;

const CREATE = {
  seed: { type: 'string' },
  clock: { type: 'string' },
  'clock-start': { type: 'string' },
  'clock-speed': { type: 'string' },
  'expires-in': { type: 'string' },
  strict: { type: 'boolean' },
  'cop-strict': { type: 'boolean' },
} as const;

const SUBS = ['create', 'list', 'show', 'delete'] as const;
type Sub = (typeof SUBS)[number];
type Env = Record<string, string | undefined>;
type Out = (line: string) => void;

// The sandbox commands talk to the simulator's own world: --sandbox is not theirs.
const { sandbox: _notHere, ...OWN_WORLD } = CONNECTION;

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
const MIN_LIFETIME = 60;
const MAX_LIFETIME = 30 * 86_400;

/** `2h` → 7200, `1h30m` → 5400: a lifetime in seconds; anything else is a UsageError. */
export function durationSeconds(flag: string, text: string): number {
  const t = text.trim().toLowerCase();
  if (!/^(\d+[smhdw])+$/.test(t))
    throw usageError(
      `${flag} must be a duration such as 30m, 2h or 7d (units s, m, h, d, w; combined as 1h30m), got '${text}'`,
      SANDBOX_HELP,
    );
  let seconds = 0;
  for (const [, n, unit] of t.matchAll(/(\d+)([smhdw])/g)) seconds += Number(n) * UNITS[unit!]!;
  if (seconds < MIN_LIFETIME || seconds > MAX_LIFETIME)
    throw usageError(`${flag} must be from 1m to 30d, got '${text}'`, SANDBOX_HELP);
  return seconds;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The create body's attributes from the flags; a value the CLI can tell is wrong is a UsageError. */
export function createAttributes(values: Record<string, unknown>): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  const oneOf = (flag: string, allowed: readonly string[]) => {
    const v = values[flag] as string | undefined;
    if (v !== undefined && !allowed.includes(v))
      throw usageError(`--${flag} must be ${allowed.join(' or ')}, got '${v}'`, SANDBOX_HELP);
    return v;
  };
  const seed = oneOf('seed', ['fixtures', 'none']);
  if (seed) attributes.seed = seed;
  const mode = oneOf('clock', ['frozen', 'running']);
  const start = values['clock-start'] as string | undefined;
  const speedText = values['clock-speed'] as string | undefined;
  if (mode !== undefined || start !== undefined || speedText !== undefined) {
    // As scheme-sim start: a clock given a start or a speed but no mode runs.
    const clock: Record<string, unknown> = { mode: mode ?? 'running' };
    if (start !== undefined) {
      if (!ISO_INSTANT.test(start) || Number.isNaN(Date.parse(start)))
        throw usageError(
          `--clock-start must be an ISO 8601 instant with a time zone, e.g. 2026-12-21T09:00:00Z; got '${start}'`,
          SANDBOX_HELP,
        );
      if (!isSupportedInstant(new Date(start)))
        throw usageError(`--clock-start must be a London date from ${SUPPORTED_RANGE}; got '${start}'`, SANDBOX_HELP);
      clock.start = start;
    }
    if (speedText !== undefined) {
      if (clock.mode === 'frozen')
        throw usageError('--clock-speed applies to a running clock only (--clock running)', SANDBOX_HELP);
      const speed = Number(speedText);
      if (speedText.trim() === '' || !(Number.isFinite(speed) && speed > 0 && speed <= MAX_SPEED))
        throw usageError(
          `--clock-speed must be a number greater than 0 and at most ${MAX_SPEED}, got '${speedText}'`,
          SANDBOX_HELP,
        );
      clock.speed = speed;
    }
    attributes.clock = clock;
  }
  if (values['expires-in'] !== undefined)
    attributes.lifetime_seconds = durationSeconds('--expires-in', values['expires-in'] as string);
  const settings: Record<string, unknown> = {};
  if (values.strict) settings.strict = true;
  if (values['cop-strict']) settings.cop_strict = true;
  if (Object.keys(settings).length) attributes.settings = settings;
  return attributes;
}

/** A value as a shell word: as it is when safe, else in single quotes. */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

interface Client {
  client_id: string;
  client_secret?: string;
  organisation_id: string;
  name?: string;
  role?: string;
  key_ids?: string[];
}

/** Where Form3's SDK reaches the sandbox: the simulator, or (no saved client) the sandbox's path. */
const hostOf = (base: string, sandbox: Answer, byPath: boolean) =>
  byPath ? `${base}${sandbox.attributes?.path_prefix ?? `/sandboxes/${sandbox.id}`}` : base;

/** The lines of one sandbox: id, expiry, clock, clients; then export lines when secrets are there. */
export function sandboxLines(sandbox: Answer, base: string, byPath: boolean, verb = 'on'): string[] {
  const a = sandbox.attributes ?? {};
  const clock = a.clock ?? {};
  const clients = (a.clients ?? []) as Client[];
  const lines = [
    `sandbox ${sandbox.id} ${verb} ${base}, expires ${a.expires_at}`,
    `  clock:   ${clock.now} (${clock.mode}${clock.mode === 'running' ? `, speed ${clock.speed}` : ''})${clock.london_date ? `, London date ${clock.london_date}` : ''}`,
    `  seed:    ${a.seed}; ${a.record_count ?? 0} records of ${a.record_quota ?? '?'}; path ${a.path_prefix ?? `/sandboxes/${sandbox.id}`}`,
  ];
  for (const c of clients)
    lines.push(
      `  client:  ${c.client_id}${c.client_secret ? ` / ${c.client_secret}` : ''} (${c.role ?? 'member'}${c.name ? ` ${c.name}` : ''}, organisation ${c.organisation_id}${c.key_ids?.length ? `, key ids ${c.key_ids.join(', ')}` : ''})`,
    );
  const first = clients[0];
  if (!first?.client_secret) return lines;
  lines.push(
    "# paste into a shell: Form3's Go SDK (FORM3_*) and scheme-sim's commands then talk to this sandbox",
    `export FORM3_HOST=${shellWord(hostOf(base, sandbox, byPath))}`,
    `export FORM3_CLIENT_ID=${shellWord(first.client_id)}`,
    `export FORM3_CLIENT_SECRET=${shellWord(first.client_secret)}`,
    `export FORM3_ORGANISATION_ID=${shellWord(first.organisation_id)}`,
  );
  if (first.key_ids?.[0]) {
    lines.push(`export FORM3_PUBLIC_KEY_ID=${shellWord(first.key_ids[0])}`);
    lines.push(
      '# FORM3_PRIVATE_KEY: the private key of the fixture client it copies (fixtures/keys/northwind-dev-signing.pem for the bundled one)',
    );
  }
  lines.push(`export SCHEME_SIM_SANDBOX=${shellWord(sandbox.id)}`);
  return lines;
}

/**
 * Whether the sandbox is reached by its path rather than by its clients' credentials: true when the
 * simulator answers its path without credentials (--auth off, where a token names no sandbox).
 */
async function reachedByPath(conn: Connection, prefix: string): Promise<boolean> {
  try {
    const res = await fetch(`${conn.target.base}${prefix}/v1/simulator/clock`, {
      headers: { [TOOL_HEADER]: 'cli' },
    });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** The sandbox id argument of show and delete. */
function idArgument(sub: Sub, args: string[]): string {
  if (args.length === 0)
    throw usageError(`sandbox ${sub} needs the sandbox's ID (scheme-sim sandbox list)`, SANDBOX_HELP);
  if (args.length > 1) throw usageError(`sandbox ${sub} takes one ID, got ${args.join(' ')}`, SANDBOX_HELP);
  const id = args[0]!;
  if (!SANDBOX_ID.test(id)) throw usageError(`not a sandbox id: '${id}'`, SANDBOX_HELP);
  return id;
}

/** Runs `scheme-sim sandbox ...`; UsageError for the command line, CliError for the simulator's refusal. */
export async function sandboxCommand(
  argv: string[],
  out: Out = console.log,
  env: Env = process.env,
  note: Out = (line) => process.stderr.write(`${line}\n`),
): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '-h' || sub === '--help' || sub === 'help') return void out(SANDBOX_HELP);
  if (!(SUBS as readonly string[]).includes(sub)) throw unknownSubcommand('sandbox', sub, SUBS, SANDBOX_HELP);
  const name = sub as Sub;
  const { values, positionals } = parseCommand(
    rest,
    { ...OWN_WORLD, ...(name === 'create' ? CREATE : {}) },
    SANDBOX_HELP,
    true,
  );
  if (values.help) return void out(SANDBOX_HELP);
  if ((name === 'create' || name === 'list') && positionals.length)
    throw usageError(`sandbox ${name} takes no arguments, got ${positionals.join(' ')}`, SANDBOX_HELP);
  if (name === 'create') return create(values, out, env, note);
  if (name === 'list') return list(values, out, env, note);
  const id = idArgument(name, positionals);
  const conn = await connect(values, env, note, { sandbox: id }).catch((err: Error) => {
    // The saved client refused: the sandbox is likely gone; the own world's client asks.
    if (!err.message.startsWith('token request') || !readSandboxProfile(id, env)?.profile.client_id) throw err;
    note(`scheme-sim: ${err.message}; asking as a client of the simulator's own world`);
    return connect(values, env, note, { sandbox: id, ownWorld: true });
  });
  const path = `/v1/simulator/sandboxes/${id}`;
  if (name === 'show') {
    const json = await readAnswer<{ data: Answer }>(await conn.request(path), conn);
    if (values.json) return void out(JSON.stringify(json, null, 2));
    const saved = readSandboxProfile(id, env);
    for (const line of sandboxLines(json.data, conn.target.base, saved !== undefined && !saved.profile.client_id))
      out(line);
    return;
  }
  const res = await conn.request(path, { method: 'DELETE' });
  // Gone already (expired, or deleted elsewhere): its profile goes too.
  const removed = res.status < 300 || res.status === 404 ? removeSandboxProfile(id, env) : undefined;
  const profileNote = removed ? `; removed its profile ${shortPath(removed, env)}` : '';
  if (res.status === 404) {
    const body = (await res.json().catch(() => ({}))) as { error_message?: string };
    throw new CliError(`404: ${body.error_message ?? `no sandbox ${id}`}${profileNote}`);
  }
  await readAnswer(res, conn);
  if (values.json) return void out(JSON.stringify({ deleted: id, ...(removed ? { removed_profile: removed } : {}) }));
  out(`sandbox ${id} deleted${profileNote}`);
}

async function create(values: Record<string, unknown>, out: Out, env: Env, note: Out): Promise<void> {
  const attributes = createAttributes(values);
  const conn = await connect(values, env, note, {});
  const res = await conn.request('/v1/simulator/sandboxes', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { type: 'sandboxes', attributes } }),
  });
  const json = await readAnswer<{ data: Answer }>(res, conn);
  const sandbox = json.data;
  const prefix = sandbox.attributes?.path_prefix ?? `/sandboxes/${sandbox.id}`;
  const byPath = await reachedByPath(conn, prefix);
  const first = (sandbox.attributes?.clients ?? [])[0] as Client | undefined;
  const client =
    !byPath && first?.client_secret
      ? { client_id: first.client_id, client_secret: first.client_secret, organisation_id: first.organisation_id }
      : {};
  let saved: string;
  try {
    saved = `  profile: ${shortPath(
      writeSandboxProfile(
        {
          id: sandbox.id,
          url: conn.target.base,
          ...client,
          expires_at: sandbox.attributes?.expires_at,
          created_at: new Date().toISOString(),
        },
        env,
      ),
      env,
    )}${byPath ? ' (no client: the simulator runs with --auth off, so the sandbox is reached by its path)' : ''}; --sandbox ${sandbox.id} uses it`;
  } catch (err) {
    saved = `  profile: not written (${(err as Error).message})`;
  }
  if (values.json) {
    note(saved.trim());
    return void out(JSON.stringify(json, null, 2));
  }
  const lines = sandboxLines(sandbox, conn.target.base, byPath, 'created on');
  const exports = lines.findIndex((l) => l.startsWith('#'));
  lines.splice(exports < 0 ? lines.length : exports, 0, saved);
  for (const line of lines) out(line);
}

async function list(values: Record<string, unknown>, out: Out, env: Env, note: Out): Promise<void> {
  const conn = await connect(values, env, note, {});
  const json = await readAnswer<{ data: Answer[] }>(await conn.request('/v1/simulator/sandboxes'), conn);
  if (values.json) return void out(JSON.stringify(json, null, 2));
  const all = json.data ?? [];
  out(`${all.length} sandbox${all.length === 1 ? '' : 'es'} on ${conn.target.base}`);
  for (const s of all) {
    const a = s.attributes ?? {};
    out(
      `${s.id}  expires ${a.expires_at}  clock ${a.clock?.now} (${a.clock?.mode})  seed ${a.seed}  records ${a.record_count ?? 0}/${a.record_quota ?? '?'}  clients ${(a.clients ?? []).length}${readSandboxProfile(s.id, env) ? '  saved' : ''}`,
    );
  }
}
