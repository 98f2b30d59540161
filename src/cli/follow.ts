// `scheme-sim logs [--follow]`: the request journal and the notification delivery attempts of a
// running simulator, as lines, oldest first; --follow then streams new ones from the simulator's
// live log (GET /v1/simulator/stream, server-sent events), like `stripe logs tail`. Neither the
// reads nor the stream add to the journal.
import { statusMatches } from '../api/journal/request-journal.ts';
import { type Answer, journalLine } from './api-commands.ts';
import { CliError } from './cli-errors.ts';
import { CONNECTION, type Connection, connect, readAnswer } from './connection.ts';
import { readEvents } from './event-stream.ts';
import { parseCommand, statusFilter, usageError } from './usage.ts';

export const LOGS_HELP = `Usage: scheme-sim logs [--follow] [--status 4xx|404] [--method M] [--path PREFIX]

The requests the simulator answered for your organisation and its notification delivery attempts,
oldest first. --follow then prints new ones as they happen (streamed from the simulator) until
interrupted (Ctrl-C). The reads of the simulator's own tools (this command, the dashboard) are
left out, and following adds nothing to the request journal.
  -f, --follow      keep printing new lines
  --status S        only lines with this status: 404, or a class such as 4xx (a delivery's
                    response code counts)
  --method M        only requests of this method (deliveries are left out)
  --path PREFIX     only requests whose path starts with PREFIX (deliveries are left out)
  --url URL, --client-id ID, --client-secret S   as for scheme-sim clock (or a simulator's profile)
  --sandbox ID      a sandbox of it (env SCHEME_SIM_SANDBOX; scheme-sim sandbox --help)
  --json            one JSON object per line
  -h, --help        this help`;

interface Line {
  at: string;
  id: string;
  text: string;
  json: unknown;
}

type Filters = { status?: string; method?: string; path?: string };

const requestLine = (id: string, a: Answer): Line => ({
  at: a.time,
  id,
  text: journalLine(a),
  json: { kind: 'request', ...a },
});

const deliveryLine = (id: string, a: Answer): Line => ({
  at: a.attempted_at,
  id,
  text: `${a.attempted_at} delivery ${a.status} ${a.response_code} ${a.event_type} ${a.record_type} → ${a.callback_uri}${a.error_message ? ` (${a.error_message})` : ''}`,
  json: { kind: 'delivery', ...a },
});

const query = (pairs: Record<string, string | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(pairs)) if (v !== undefined) q.set(k, v);
  return q.toString();
};

/** The filters from the flags, checked here so a typo is a usage error and not a 400. */
function filtersOf(values: Record<string, unknown>): Filters {
  const f: Filters = {};
  if (values.status !== undefined) f.status = statusFilter(values.status, LOGS_HELP);
  if (values.method !== undefined) {
    const m = String(values.method);
    if (!/^[A-Za-z]+$/.test(m)) throw usageError(`--method takes an HTTP method such as POST, got '${m}'`, LOGS_HELP);
    f.method = m.toUpperCase();
  }
  if (values.path !== undefined) {
    const p = String(values.path);
    if (!p.startsWith('/')) throw usageError(`--path takes a path prefix starting with /, got '${p}'`, LOGS_HELP);
    f.path = p;
  }
  return f;
}

/** What the journal and the delivery log hold now, matching the filters, oldest first. */
async function backlog(conn: Connection, f: Filters): Promise<Line[]> {
  const get = async (path: string) =>
    readAnswer<{ data: Answer[]; links?: { first?: string; last?: string } }>(await conn.request(path), conn);
  const requests = await get(
    `/v1/simulator/requests?${query({ 'filter[status]': f.status, 'filter[method]': f.method, 'filter[path]': f.path, 'page[size]': '100' })}`,
  );
  const lines = requests.data.map((e) => requestLine(e.id, e.attributes));
  if (f.method === undefined && f.path === undefined) {
    const first = await get('/v1/simulator/deliveries?page[size]=100');
    // Attempts are listed oldest first: the newest are on the last page.
    const last = first.links?.last;
    const attempts = last && last !== first.links?.first ? (await get(last)).data : first.data;
    for (const d of attempts)
      if (
        f.status === undefined ||
        (d.attributes.response_code !== null && statusMatches(f.status, d.attributes.response_code))
      )
        lines.push(deliveryLine(d.id, d.attributes));
  }
  return lines.sort((x, y) => x.at.localeCompare(y.at));
}

/** Runs until `signal` aborts (with --follow) or after one read. */
export async function logsCommand(
  argv: string[],
  out: (line: string) => void = console.log,
  env: Record<string, string | undefined> = process.env,
  signal?: AbortSignal,
  note?: (line: string) => void,
): Promise<void> {
  const { values } = parseCommand(
    argv,
    {
      ...CONNECTION,
      follow: { type: 'boolean', short: 'f' },
      status: { type: 'string' },
      method: { type: 'string' },
      path: { type: 'string' },
    },
    LOGS_HELP,
  );
  if (values.help) return void out(LOGS_HELP);
  const filters = filtersOf(values);
  const conn = await connect(values, env, note);
  const print = (l: Line) => out(values.json ? JSON.stringify(l.json) : l.text);
  if (!values.follow) {
    for (const l of await backlog(conn, filters)) print(l);
    return;
  }
  // The stream first, then what happened before it: nothing falls between the two, and a line
  // in both is printed once.
  const stop = new AbortController();
  signal?.addEventListener('abort', () => stop.abort(), { once: true });
  if (signal?.aborted) return;
  const res = await conn.request(
    `/v1/simulator/stream?${query({ 'filter[status]': filters.status, 'filter[method]': filters.method, 'filter[path]': filters.path, 'filter[kind]': 'request,delivery' })}`,
    { headers: { accept: 'text/event-stream' }, signal: stop.signal },
  );
  if (res.status !== 200) await readAnswer(res, conn);
  const seen = new Set<string>();
  const printOnce = (l: Line) => {
    if (seen.has(l.id)) return;
    seen.add(l.id);
    print(l);
  };
  try {
    for await (const e of readEvents(res)) {
      if (e.event === 'ready') for (const l of await backlog(conn, filters)) printOnce(l);
      else if (e.event === 'request') printOnce(requestLine(e.id ?? '', JSON.parse(e.data)));
      else if (e.event === 'delivery') printOnce(deliveryLine(e.id ?? '', JSON.parse(e.data)));
      else if (e.event === 'overflow') throw new CliError(`the simulator dropped the stream: ${e.data}`);
    }
  } catch (err) {
    if (stop.signal.aborted) return;
    if (err instanceof CliError) throw err;
    throw new CliError(`the stream from ${conn.base} broke: ${(err as Error).message}`);
  }
  if (!stop.signal.aborted) throw new CliError(`the simulator at ${conn.base} closed the stream (it stopped?)`);
}
