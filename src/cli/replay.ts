// `scheme-sim replay`: a recording made by `scheme-sim proxy` replayed in order against a target
// (or, --differential, two), with a table of where the answers diverge, a run report for the next
// run's --baseline, and an exit status CI can gate on.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { gateOnBaseline, readReport } from './baseline.ts';
import { CliError } from './cli-errors.ts';
import { type Connection, connect, organisationOf } from './connection.ts';
import { readRecording } from './exchange-record.ts';
import { type Credentials, type ReplayTarget, replayExchanges, replayTarget } from './replay-engine.ts';
import { divergenceTable, readAllowList, replayReport } from './replay-report.ts';
import { parseCommand, usageError } from './usage.ts';

const HELP = `Usage: scheme-sim replay FILE [--against URL] [options]

Sends the requests of a recording (scheme-sim proxy --record FILE) in order to the target and
compares each answer with the recorded one: the status, the media type, and the JSON body path by
path (error messages included). Ids are mapped: an id the recorded target gave, or the recorded
client chose for a new record, stands for the one this target gave or the replay chose afresh;
timestamps, links and masked secrets are compared as present, never by value. Prints a table of
divergences by exchange and JSON path, writes the run report, and exits 1 on any divergence not in
the allow-list (with --baseline: on any new one only).

Credentials: the recording holds none. Requests are sent as the CLI's client of the target
(--client-id/--client-secret, SCHEME_SIM_CLIENT_ID/_SECRET, the target's profile, or the client
scheme-sim sandbox create saved for --sandbox); recorded token requests ask the target for a token
as that client, and later requests use it. --client maps another recorded client to one here.

  --against URL       the target (default: the simulator the CLI finds, as other commands do)
  --sandbox ID        a sandbox of it (its saved client, else by its path)
  --client-id ID, --client-secret S   the client requests are sent as
  --client REC=ID:SECRET   requests the recorded client REC made go as ID (repeatable)
  --differential URL2 send every request to a second target as well and compare its answers
                      with the first's, not with the recording; URL2 defaults to the first
                      target's simulator when one of the next three is given
  --differential-sandbox ID, --differential-client-id ID, --differential-client-secret S
                      the second target's sandbox and client, as --sandbox and --client-id are
                      for the first (else SCHEME_SIM_CLIENT_ID/_SECRET or URL2's profile)
  --allow FILE        divergences allowed: one a line, METHOD PATH JSON-PATH as the table prints
                      them, * for anything (GET /v1/notification/reports/{id} status)
  --baseline FILE     an earlier run report: print what is new, fixed and still diverging, and
                      exit 1 on new divergences only
  --report FILE       where the run report goes (default reports/conformance-replay.json, under
                      CONFORMANCE_REPORTS_DIR when set)
  --json              print the run report instead of the table
  -h, --help          this help`;

/** `--client northwind-dev=5a1e…:secret`: the recorded client and the one it stands for here. */
function clientMapping(value: string): [string, Credentials] {
  const m = /^([^=]+)=([^:]+):(.+)$/.exec(value);
  if (!m) throw usageError(`--client must be RECORDED_ID=ID:SECRET, got '${value}'`, HELP);
  return [m[1]!, { id: m[2]!, secret: m[3]! }];
}

/** A target of the replay: the connection's base and client, and its organisation when it can tell. */
async function targetOf(conn: Connection, clients: Map<string, Credentials>): Promise<ReplayTarget> {
  const organisation = conn.client ? await organisationOf(conn).catch(() => undefined) : undefined;
  return replayTarget(conn.base, conn.client, organisation, clients);
}

/** `scheme-sim replay`: resolves with the exit code. */
export async function replayCommand(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: (line: string) => void = console.log,
): Promise<number> {
  const { values, positionals } = parseCommand(
    argv,
    {
      against: { type: 'string' },
      sandbox: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      client: { type: 'string', multiple: true },
      differential: { type: 'string' },
      'differential-sandbox': { type: 'string' },
      'differential-client-id': { type: 'string' },
      'differential-client-secret': { type: 'string' },
      allow: { type: 'string' },
      baseline: { type: 'string' },
      report: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    HELP,
    true,
  );
  if (values.help) {
    out(HELP);
    return 0;
  }
  if (positionals.length !== 1) throw usageError('replay takes one recording: scheme-sim replay FILE', HELP);
  const file = positionals[0]!;
  let exchanges: ReturnType<typeof readRecording>;
  try {
    exchanges = readRecording(file);
  } catch (err) {
    throw new CliError(
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? `no recording at ${file}` : (err as Error).message,
    );
  }
  let allow: RegExp[] = [];
  try {
    allow = values.allow ? readAllowList(values.allow as string) : [];
  } catch (err) {
    throw usageError(`--allow ${(err as Error).message}`, HELP);
  }
  const baselineFile = values.baseline as string | undefined;
  if (baselineFile) readReport(baselineFile, '--baseline');
  const clients = new Map((values.client as string[] | undefined)?.map(clientMapping));
  const flags = { 'client-id': values['client-id'], 'client-secret': values['client-secret'] };

  const first = await connect({ ...flags, url: values.against, sandbox: values.sandbox }, env);
  const second = ['differential', 'differential-sandbox', 'differential-client-id', 'differential-client-secret'].some(
    (o) => values[o] !== undefined,
  )
    ? await connect(
        {
          url: values.differential ?? first.target.base,
          sandbox: values['differential-sandbox'],
          'client-id': values['differential-client-id'],
          'client-secret': values['differential-client-secret'],
        },
        { ...env, SCHEME_SIM_SANDBOX: '' },
      )
    : undefined;
  const targets: [ReplayTarget] | [ReplayTarget, ReplayTarget] = second
    ? [await targetOf(first, clients), await targetOf(second, clients)]
    : [await targetOf(first, clients)];

  const outcomes = await replayExchanges(exchanges, targets);
  const report = replayReport(outcomes, allow, {
    target: 'replay',
    base_url: first.base,
    ...(second ? { compared_with: second.base } : {}),
    recording: file,
  });
  const reportFile = resolve(
    (values.report as string | undefined) ?? `${env.CONFORMANCE_REPORTS_DIR || 'reports'}/conformance-replay.json`,
  );
  mkdirSync(dirname(reportFile), { recursive: true });
  writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
  if (values.json) out(JSON.stringify(report, null, 2));
  else for (const line of divergenceTable(report)) out(line);
  const code = report.divergences.length > 0 ? 1 : 0;
  return baselineFile ? gateOnBaseline(code, reportFile, baselineFile, out) : code;
}
