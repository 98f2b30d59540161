// `scheme-sim clock ...`: a thin client of the control API under /v1/simulator/clock.
import { UsageError } from './cli-errors.ts';
import { CONNECTION, connect, readAnswer } from './connection.ts';
import { needOneOf, parseCommand, unknownSubcommand, usageError } from './usage.ts';

export const CLOCK_HELP: Record<string, string> = {
  clock: `Usage: scheme-sim clock <show|advance|freeze|resume> [options]

Reads and moves the scheme clock of a running simulator.
  show      print the scheme clock
  advance   move it forward (--working-days N | --days N | --hours N | --to ISO), running due jobs
  freeze    stop it where it is
  resume    let it run with the wall clock (--speed N: virtual seconds per wall second)

Connection (every subcommand):
  --url URL             simulator base URL (env SCHEME_SIM_URL; else a profile a running simulator
                        wrote: SCHEME_SIM_PROFILE or ~/.scheme-sim/profiles/; else http://127.0.0.1:8080)
  --client-id ID        OAuth client (env SCHEME_SIM_CLIENT_ID); omit both for a server run with --auth off
  --client-secret S     its secret (env SCHEME_SIM_CLIENT_SECRET)
  --sandbox ID          a sandbox of that simulator (env SCHEME_SIM_SANDBOX): as the client
                        scheme-sim sandbox create saved for it, else by its path /sandboxes/ID
  --json                print the response body as JSON
  -h, --help            help of a subcommand`,
  show: `Usage: scheme-sim clock show [--url URL] [--client-id ID --client-secret S] [--json]

Prints the scheme clock: the instant, the mode, the London date and the next job due.`,
  advance: `Usage: scheme-sim clock advance (--working-days N | --days N | --hours N | --to ISO) [--url URL] [--client-id ID --client-secret S] [--json]

Moves the scheme clock forward by exactly one of:
  --working-days N   Bacs working days (London time of day kept)
  --days N           calendar days (London time of day kept)
  --hours N          elapsed hours
  --to ISO           an instant, e.g. 2027-01-04T09:00:00Z (not before the clock, at most 5 years ahead)
Every job due on the way runs, in due order.`,
  freeze: `Usage: scheme-sim clock freeze [--url URL] [--client-id ID --client-secret S] [--json]

Stops the scheme clock where it is; it then moves only when advanced.`,
  resume: `Usage: scheme-sim clock resume [--speed N] [--url URL] [--client-id ID --client-secret S] [--json]

Lets the scheme clock follow the wall clock from where it is, at speed N (default: the last speed,
1 at first); due jobs run as their time comes.`,
};

const SUB_OPTIONS = {
  show: {},
  freeze: {},
  resume: { speed: { type: 'string' } },
  advance: {
    'working-days': { type: 'string' },
    days: { type: 'string' },
    hours: { type: 'string' },
    to: { type: 'string' },
  },
} as const;

type Sub = keyof typeof SUB_OPTIONS;
type Out = (line: string) => void;

function number(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${flag} must be a number, got '${value}'`);
  return n;
}

/** Builds the request body of a subcommand from its flags. */
function bodyOf(sub: Sub, values: Record<string, unknown>): Record<string, unknown> | undefined {
  if (sub === 'resume')
    return values.speed === undefined ? undefined : { speed: number('speed', values.speed as string) };
  if (sub !== 'advance') return undefined;
  const flags = ['working-days', 'days', 'hours', 'to'] as const;
  needOneOf(values, flags, 'clock advance', CLOCK_HELP.advance!);
  const units = flags.filter((k) => values[k] !== undefined);
  if (units.length !== 1)
    throw usageError(
      `clock advance takes exactly one of --working-days, --days, --hours, --to; got ${units.map((u) => `--${u}`).join(' and ')}`,
      CLOCK_HELP.advance!,
    );
  const unit = units[0]!;
  const raw = values[unit] as string;
  if (unit === 'to') return { to: raw };
  return { [unit === 'working-days' ? 'working_days' : unit]: number(unit, raw) };
}

function describe(data: Record<string, unknown>): string[] {
  const lines = [
    `scheme clock: ${data.now} (${data.mode}${data.mode === 'running' ? `, speed ${data.speed}` : ''})`,
    `  London date ${data.london_date}, ${data.bacs_working_day ? 'a Bacs working day' : 'not a Bacs working day'}`,
  ];
  if (data.advanced_from !== undefined) {
    const kinds = Object.entries((data.jobs_run_by_kind ?? {}) as Record<string, number>).map(([k, n]) => `${k} ×${n}`);
    lines.push(
      `  advanced from ${data.advanced_from}; ${data.jobs_run_count} job${data.jobs_run_count === 1 ? '' : 's'} run${kinds.length ? ` (${kinds.join(', ')})` : ''}`,
    );
  }
  // One line per failure; the full list of runs is in --json.
  for (const run of (data.jobs_run ?? []) as Array<{ kind: string; id: string; due: string; error?: string }>) {
    if (run.error) lines.push(`    ${run.due} ${run.kind} ${run.id} FAILED: ${run.error}`);
  }
  lines.push(`  next job due: ${data.next_due ?? 'none'} (${data.pending_jobs} pending)`);
  return lines;
}

/** Runs `scheme-sim clock ...`; resolves when done, throws CliError for anything the user should fix. */
export async function clockCommand(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: Out = console.log,
  note?: Out,
): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '-h' || sub === '--help' || sub === 'help') return void out(CLOCK_HELP.clock!);
  if (!(sub in SUB_OPTIONS)) throw unknownSubcommand('clock', sub, Object.keys(SUB_OPTIONS), CLOCK_HELP.clock!);
  const name = sub as Sub;
  const { values } = parseCommand(rest, { ...CONNECTION, ...SUB_OPTIONS[name] }, CLOCK_HELP[name]!);
  if (values.help) return void out(CLOCK_HELP[name]!);
  const body = bodyOf(name, values);
  const conn = await connect(values, env, note);
  const path = name === 'show' ? '/v1/simulator/clock' : `/v1/simulator/clock/${name}`;
  const res = await conn.request(path, {
    method: name === 'show' ? 'GET' : 'POST',
    ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const json = await readAnswer<{ data?: Record<string, unknown> }>(res, conn);
  if (values.json) return void out(JSON.stringify(json, null, 2));
  for (const line of describe(json.data ?? {})) out(line);
}
