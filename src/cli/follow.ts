// `scheme-sim logs [--follow]`: the request journal and the notification delivery attempts of a
// running simulator, as lines, oldest first; --follow keeps polling for new ones (like
// `stripe logs tail`). The command's own polling requests are not shown.
import { type Answer, journalLine } from './api-commands.ts';
import { CliError, UsageError } from './cli-errors.ts';
import { CONNECTION, connect } from './connection.ts';
import { parseCommand } from './usage.ts';

export const LOGS_HELP = `Usage: scheme-sim logs [--follow] [--interval MS]

The requests the simulator answered for your organisation and its notification delivery attempts,
oldest first. --follow keeps printing new ones until interrupted (Ctrl-C).
  --url URL, --client-id ID, --client-secret S   as for scheme-sim clock (or the profile npm start wrote)
  --json            one JSON object per line
  -h, --help        this help`;

interface Line {
  at: string;
  id: string;
  text: string;
  json: unknown;
}

const OWN = /^\/v1\/simulator\/(requests|deliveries)$/;

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
    { ...CONNECTION, follow: { type: 'boolean', short: 'f' }, interval: { type: 'string' } },
    LOGS_HELP,
  );
  if (values.help) return void out(LOGS_HELP);
  const interval = values.interval === undefined ? 1000 : Number(values.interval);
  if (!(Number.isInteger(interval) && interval >= 50))
    throw new UsageError(`--interval must be a whole number of ms ≥ 50`);
  const conn = await connect(values, env, note);
  const get = async (path: string) => {
    const res = await conn.request(path);
    const json = (await res.json()) as {
      data: Answer[];
      links?: { first?: string; last?: string };
      error_message?: string;
    };
    if (res.status !== 200) throw new CliError(`${res.status}: ${json.error_message ?? ''}`);
    return json;
  };
  const seen = new Set<string>();
  const read = async (): Promise<Line[]> => {
    const requests = (await get('/v1/simulator/requests?page[size]=100')).data;
    const first = await get('/v1/simulator/deliveries?page[size]=100');
    // Attempts are listed oldest first: the newest are on the last page.
    const last = first.links?.last;
    const attempts = last && last !== first.links?.first ? (await get(last)).data : first.data;
    const lines: Line[] = [];
    for (const e of requests) {
      const a = e.attributes;
      if (a.method === 'GET' && OWN.test(a.path)) continue;
      lines.push({ at: a.time, id: e.id, text: journalLine(a), json: { kind: 'request', ...a } });
    }
    for (const d of attempts) {
      const a = d.attributes;
      const text = `${a.attempted_at} delivery ${a.status} ${a.response_code} ${a.event_type} ${a.record_type} → ${a.callback_uri}${a.error_message ? ` (${a.error_message})` : ''}`;
      lines.push({ at: a.attempted_at, id: d.id, text, json: { kind: 'delivery', ...a } });
    }
    return lines.filter((l) => !seen.has(l.id)).sort((x, y) => x.at.localeCompare(y.at));
  };
  for (;;) {
    for (const l of await read()) {
      seen.add(l.id);
      out(values.json ? JSON.stringify(l.json) : l.text);
    }
    if (!values.follow || signal?.aborted) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, interval);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (signal?.aborted) return;
  }
}
