// The CLI's thin commands over a running simulator's API: each one request, a one-line summary (and
// a few lines where the answer is a list), or the answer itself with --json. Usage errors exit 2.
import { UsageError } from './cli-errors.ts';
import { CONNECTION, CONNECTION_HELP, connect, readAnswer } from './connection.ts';
import { parseCommand, statusFilter, unknownSubcommand, usageError } from './usage.ts';

type Values = Record<string, unknown>;
/** An API answer as parsed JSON: each command's lines() knows the shape it asked for. */
// biome-ignore lint/suspicious/noExplicitAny: the answers are the API's JSON, read field by field
export type Answer = any;
type Json = { data?: Answer; meta?: Answer; error_message?: string };

export interface ApiCommand {
  help: string;
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  /** How many positional arguments it takes (exactly). */
  positionals: number;
  /** What the positional arguments are, for the usage error of a command given too few. */
  needs?: string;
  request(values: Values, args: string[]): { method: string; path: string; body?: unknown };
  /** The lines printed without --json. */
  lines(json: Json, values: Values, args: string[]): string[];
}

const query = (pairs: Record<string, unknown>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(pairs)) if (v !== undefined && v !== false) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
};

export const API_COMMANDS: Record<string, ApiCommand> = {
  reset: {
    help: `Usage: scheme-sim reset [--all]\n\nBack to the fixtures: the caller's organisation, or with --all (an admin client) everything\nand the scheme clock.\n${CONNECTION_HELP}`,
    options: { all: { type: 'boolean' } },
    positionals: 0,
    request: (v) => ({ method: 'POST', path: '/v1/simulator/reset', body: v.all ? { scope: 'all' } : {} }),
    lines: (j) => {
      const r = j.meta?.reset ?? {};
      const dropped = Object.values((r.records ?? {}) as Record<string, number>).reduce((a, b) => a + b, 0);
      return [
        r.scope === 'all'
          ? `everything reset; clock at ${j.data?.now}`
          : `organisation ${r.organisation_id} reset: ${dropped} records dropped, ${r.jobs ?? 0} jobs cancelled`,
      ];
    },
  },
  calendar: {
    help: `Usage: scheme-sim calendar [--from YYYY-MM-DD] [--to YYYY-MM-DD]\n\nBacs working days and England & Wales bank holidays (default: the next 30 days of the scheme clock).\n${CONNECTION_HELP}`,
    options: { from: { type: 'string' }, to: { type: 'string' } },
    positionals: 0,
    request: (v) => ({ method: 'GET', path: `/v1/simulator/calendar${query({ from: v.from, to: v.to })}` }),
    lines: (j) => [
      `${j.data.working_days.length} Bacs working days from ${j.data.from} to ${j.data.to}; holidays: ${j.data.holidays.map((h: { date: string; name: string }) => `${h.date} ${h.name}`).join(', ') || 'none'}`,
      ...j.data.working_days,
    ],
  },
  reports: {
    help: `Usage: scheme-sim reports inject TYPE [--date YYYY-MM-DD]\n\nA report of the catalogue arrives now, with its admission (and their notifications).\n${CONNECTION_HELP}`,
    options: { date: { type: 'string' } },
    positionals: 2,
    needs: 'inject TYPE (a report type of the catalogue, e.g. BACS_ARUDD)',
    request: (v, [sub, type]) => {
      if (sub !== 'inject') throw unknownSubcommand('reports', sub!, ['inject'], API_COMMANDS.reports!.help);
      return {
        method: 'POST',
        path: '/v1/simulator/reports',
        body: { report_type: type, ...(v.date ? { processing_date: v.date } : {}) },
      };
    },
    lines: (j) => [
      `report ${j.data.id} ${j.data.attributes.report_type} arrived (processing date ${j.data.attributes.processing_date})`,
    ],
  },
  deliveries: {
    help: `Usage: scheme-sim deliveries [--failed] [--subscription ID]\n\nNotification delivery attempts, newest last (--failed: only the failed ones).\n${CONNECTION_HELP}`,
    options: { failed: { type: 'boolean' }, subscription: { type: 'string' } },
    positionals: 0,
    request: (v) => ({
      method: 'GET',
      path: `/v1/simulator/deliveries${query({ 'filter[status]': v.failed ? 'failed' : undefined, 'filter[subscription_id]': v.subscription, 'page[size]': 100 })}`,
    }),
    lines: (j) => [
      `${j.data.length} delivery attempts`,
      ...j.data.map(
        (a: Answer) =>
          `${a.attributes.attempted_at} ${a.attributes.status} ${a.attributes.response_code} ${a.attributes.event_type} ${a.attributes.record_type} → ${a.attributes.callback_uri} (notification ${a.attributes.notification_id})`,
      ),
    ],
  },
  redeliver: {
    help: `Usage: scheme-sim redeliver NOTIFICATION_ID\n\nSends a finished delivery again (same notification id).\n${CONNECTION_HELP}`,
    options: {},
    positionals: 1,
    needs: 'NOTIFICATION_ID (the notification id of a delivery: scheme-sim deliveries lists them)',
    request: (_v, [id]) => ({ method: 'POST', path: `/v1/simulator/deliveries/${encodeURIComponent(id!)}/redeliver` }),
    lines: (j) => [`delivery ${j.data.id} queued again (${j.data.attributes.status})`],
  },
  requests: {
    help: `Usage: scheme-sim requests [--status 4xx|404] [--method M] [--path PREFIX] [--error-code C] [--own]\n\nThe request journal of the caller's organisation, newest first, without the reads of the\nsimulator's own tools (this CLI, the dashboard) unless --own.\n${CONNECTION_HELP}`,
    options: {
      status: { type: 'string' },
      method: { type: 'string' },
      path: { type: 'string' },
      'error-code': { type: 'string' },
      own: { type: 'boolean' },
    },
    positionals: 0,
    request: (v) => ({
      method: 'GET',
      path: `/v1/simulator/requests${query({ 'filter[status]': v.status === undefined ? undefined : statusFilter(v.status, API_COMMANDS.requests!.help), 'filter[method]': v.method, 'filter[path]': v.path, 'filter[error_code]': v['error-code'], 'filter[own]': v.own ? 'true,false' : undefined, 'page[size]': 100 })}`,
    }),
    lines: (j) => [`${j.data.length} requests`, ...j.data.map((e: Answer) => journalLine(e.attributes))],
  },
};

/** `2026-… POST /v1/transaction/claims 400 3.2ms error_code=…`: the request log's line. */
export function journalLine(e: {
  time: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  error_code?: string;
}): string {
  return `${e.time} ${e.method} ${e.path} ${e.status} ${e.duration_ms}ms${e.error_code ? ` error_code=${e.error_code}` : ''}`;
}

/** Runs one of API_COMMANDS; UsageError for the command line, CliError for the simulator's refusal. */
export async function apiCommand(
  name: string,
  argv: string[],
  out: (line: string) => void = console.log,
  env: Record<string, string | undefined> = process.env,
  note?: (line: string) => void,
): Promise<void> {
  const cmd = API_COMMANDS[name];
  if (!cmd) throw new UsageError(`unknown command ${name}`);
  const { values, positionals: args } = parseCommand(argv, { ...CONNECTION, ...cmd.options }, cmd.help, true);
  if (values.help) return void out(cmd.help);
  if (args.length < cmd.positionals) throw usageError(`${name} needs ${cmd.needs}`, cmd.help);
  if (args.length > cmd.positionals)
    throw usageError(
      cmd.positionals === 0
        ? `${name} takes no arguments, got ${args.join(' ')}`
        : `${name} takes ${cmd.needs} only, got ${args.join(' ')}`,
      cmd.help,
    );
  const req = cmd.request(values, args);
  const conn = await connect(values, env, note);
  const res = await conn.request(req.path, {
    method: req.method,
    headers: req.body !== undefined ? { 'content-type': 'application/json' } : {},
    ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
  });
  const json = await readAnswer<Json>(res, conn);
  if (values.json) return void out(JSON.stringify(json, null, 2));
  for (const line of cmd.lines(json, values, args)) out(line);
}
