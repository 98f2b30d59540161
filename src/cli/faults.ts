// `scheme-sim faults ...`: a thin client of /v1/simulator/faults on a running simulator.
import { UsageError } from './cli-errors.ts';
import { CONNECTION, connect, readAnswer } from './connection.ts';
import { needOneOf, parseCommand, unknownSubcommand, usageError } from './usage.ts';

export const FAULTS_HELP = `Usage: scheme-sim faults <set|list|clear> [options]

Fault rules for the calling client's organisation (docs/faults.md): requests matching a route and
method get a latency, an error answer with Retry-After, or a dropped connection.
  set     --route PATTERN (/v1/organisation/accounts/*; ** crosses segments) [--method M]
          and one or more of --status 429|500|502|503|504 [--retry-after S], --latency MS, --drop;
          optionally --count N (the next N matches) or --probability P (0 < P <= 1)
  list    the rules, with how many requests each answered
  clear   every rule, or --id ID only

  --url URL, --client-id ID, --client-secret S   as for scheme-sim clock (env SCHEME_SIM_URL,
                    SCHEME_SIM_CLIENT_ID, SCHEME_SIM_CLIENT_SECRET; else a simulator's profile)
  --sandbox ID   a sandbox of it (env SCHEME_SIM_SANDBOX; scheme-sim sandbox --help)
  --json         print the answer as JSON
  -h, --help     this help`;

/** The options of each subcommand: `list` takes none, `clear` an id, `set` the rule. */
const OPTIONS = {
  set: {
    route: { type: 'string' },
    method: { type: 'string' },
    status: { type: 'string' },
    'retry-after': { type: 'string' },
    latency: { type: 'string' },
    drop: { type: 'boolean' },
    count: { type: 'string' },
    probability: { type: 'string' },
  },
  list: {},
  clear: { id: { type: 'string' } },
} as const;

const numberOf = (flag: string, v: unknown) => {
  const n = Number(v);
  if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`--${flag} must be a number, got '${String(v)}'`);
  return n;
};

/**
 * The rule a `set` asks for. What the CLI can tell from the flags alone it says in its own words
 * (a route, and one of the actions); the server checks the values (and names what is wrong).
 */
function ruleOf(values: Record<string, unknown>): Record<string, unknown> {
  if (!values.route) throw usageError('faults set needs --route PATTERN (e.g. /v1/transaction/claims/*)', FAULTS_HELP);
  needOneOf(values, ['drop', 'latency', 'status'], 'faults set', FAULTS_HELP);
  const rule: Record<string, unknown> = { route: values.route };
  if (values.method) rule.method = String(values.method).toUpperCase();
  if (values.status !== undefined) rule.status = numberOf('status', values.status);
  if (values['retry-after'] !== undefined) rule.retry_after = numberOf('retry-after', values['retry-after']);
  if (values.latency !== undefined) rule.latency_ms = numberOf('latency', values.latency);
  if (values.drop) rule.drop = true;
  if (values.count !== undefined) rule.count = numberOf('count', values.count);
  if (values.probability !== undefined) rule.probability = numberOf('probability', values.probability);
  return rule;
}

/** Runs `scheme-sim faults ...`; throws CliError for anything the user should fix. */
export async function faultsCommand(
  argv: string[],
  out: (line: string) => void = console.log,
  env = process.env,
  note?: (line: string) => void,
): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help') return void out(FAULTS_HELP);
  if (name !== 'set' && name !== 'list' && name !== 'clear')
    throw unknownSubcommand('faults', name, Object.keys(OPTIONS), FAULTS_HELP);
  const { values } = parseCommand(rest, { ...CONNECTION, ...OPTIONS[name] }, FAULTS_HELP);
  if (values.help) return void out(FAULTS_HELP);
  const rule = name === 'set' ? ruleOf(values) : undefined;
  const conn = await connect(values, env, note);
  const path = `/v1/simulator/faults${name === 'clear' && values.id ? `/${String(values.id)}` : ''}`;
  const init: RequestInit = rule
    ? {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { attributes: rule } }),
      }
    : { method: name === 'clear' ? 'DELETE' : 'GET' };
  const json = await readAnswer(await conn.request(path, init), conn);
  if (values.json) return void out(JSON.stringify(json, null, 2));
  if (name === 'clear') return void out(values.id ? `fault ${String(values.id)} removed` : 'every fault removed');
  const rules = (Array.isArray(json.data) ? json.data : [json.data]) as Array<{
    id: string;
    attributes: Record<string, unknown>;
  }>;
  if (rules.length === 0) return void out('no faults');
  for (const r of rules) out(`${r.id}  ${JSON.stringify(r.attributes)}`);
}
