// `scheme-sim trigger ...`: play a scenario on a running simulator (POST /v1/simulator/scenarios),
// or list the catalogue (GET). Like Stripe's `trigger`, for the unhappy paths (docs/scenarios.md).
import { UsageError } from './cli-errors.ts';
import { CONNECTION, type Connection, connect, readAnswer } from './connection.ts';
import { didYouMean, parseCommand, usageError } from './usage.ts';

export const TRIGGER_HELP = `Usage: scheme-sim trigger <scenario> [--target ID] [--param key=value ...]
       scheme-sim trigger --list

Plays a scenario of the catalogue for the calling client's organisation (docs/scenarios.md):
  claim_submission.validation_failed --target SUBMISSION_ID [--param reason=TEXT]
  claim_submission.delivery_failed   --target SUBMISSION_ID [--param reason=TEXT]
  claim.contra_delayed               --target SUBMISSION_ID [--param working_days=N]
  claim.contra_withheld              --target SUBMISSION_ID
  report_admission.failed            --target REPORT_ID [--param scheme_status_code=C] [--param reason=TEXT]
  notification.duplicate             --target RECORD_ID
  report.emitted                     --param report_type=TYPE [--param admission_status=failed]
  name_verification.responder_slow   --param open_banking_id=ID [--param seconds=N]
  name_verification.responder_failed --param open_banking_id=ID [--param reason=TEXT]

  --list         the catalogue: every scenario, when it acts and what it does
  --url URL, --client-id ID, --client-secret S   as for scheme-sim clock (env SCHEME_SIM_URL,
                    SCHEME_SIM_CLIENT_ID, SCHEME_SIM_CLIENT_SECRET; else a simulator's profile)
  --sandbox ID   a sandbox of it (env SCHEME_SIM_SANDBOX; scheme-sim sandbox --help)
  --json         print the answer as JSON
  -h, --help     this help`;

const OPTIONS = {
  target: { type: 'string' },
  param: { type: 'string', multiple: true },
  list: { type: 'boolean' },
} as const;

/** `working_days=2` → { working_days: 2 }: whole numbers are numbers, the rest strings. */
export function parametersOf(pairs: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--param takes key=value, got '${pair}'`);
    const value = pair.slice(eq + 1);
    out[pair.slice(0, eq)] = /^-?\d+$/.test(value) ? Number(value) : value;
  }
  return out;
}

/**
 * Refuses a name the simulator's catalogue (GET /v1/simulator/scenarios) does not hold as a usage
 * error, with the nearest names, before anything is played.
 */
async function knownScenario(conn: Connection, name: string): Promise<void> {
  const catalogue = await readAnswer<{ data: Array<{ id: string }> }>(
    await conn.request('/v1/simulator/scenarios'),
    conn,
  );
  const names = catalogue.data.map((d) => d.id);
  if (names.includes(name)) return;
  throw new UsageError(
    `no scenario '${name}' in the catalogue${didYouMean(name, names)} (scheme-sim trigger --list shows every one)`,
  );
}

/** Runs `scheme-sim trigger ...`; throws CliError for anything the user should fix. */
export async function triggerCommand(
  argv: string[],
  out: (line: string) => void = console.log,
  env = process.env,
  note?: (line: string) => void,
): Promise<void> {
  const { values, positionals } = parseCommand(argv, { ...CONNECTION, ...OPTIONS }, TRIGGER_HELP, true);
  if (values.help) return void out(TRIGGER_HELP);
  // Nothing at all is a usage error too (exit 2, the usage on stderr): a script that forgot the
  // scenario's name must not pass.
  if (!values.list && positionals.length === 0)
    throw usageError('trigger needs a scenario name (or --list for the catalogue)', TRIGGER_HELP);
  if (values.list && positionals.length > 0)
    throw usageError(`trigger --list takes no scenario, got ${positionals.join(' ')}`, TRIGGER_HELP);
  if (positionals.length > 1)
    throw usageError(`trigger plays one scenario, got ${positionals.join(' ')}`, TRIGGER_HELP);
  const parameters = values.param ? parametersOf(values.param as string[]) : undefined;
  const conn = await connect(values, env, note);
  if (!values.list) await knownScenario(conn, positionals[0]!);
  const attributes = {
    name: positionals[0],
    ...(values.target !== undefined ? { target_id: values.target } : {}),
    ...(parameters ? { parameters } : {}),
  };
  const init: RequestInit = values.list
    ? { method: 'GET' }
    : {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { type: 'scenarios', attributes } }),
      };
  const json = await readAnswer(await conn.request('/v1/simulator/scenarios', init), conn);
  if (values.json) return void out(JSON.stringify(json, null, 2));
  if (values.list) {
    for (const d of json.data as Array<{ id: string; attributes: { target_type?: string; effect: string } }>)
      out(`${d.id}${d.attributes.target_type ? ` (target: ${d.attributes.target_type})` : ''}: ${d.attributes.effect}`);
    return;
  }
  const s = json.data as { id: string; attributes: { name: string; status: string; effect?: string } };
  out(
    `scenario ${s.id} ${s.attributes.name} ${s.attributes.status}${s.attributes.effect ? `: ${s.attributes.effect}` : ''}`,
  );
}
