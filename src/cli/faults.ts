// `scheme-sim faults ...`: a thin client of /v1/simulator/faults on a running simulator.
import { CONNECTION, connect, parseCommand, readAnswer, request, UsageError } from './connection.ts';

export const FAULTS_HELP = `Usage: scheme-sim faults <set|list|clear> [options]

Fault rules for the calling client's organisation (docs/faults.md): requests matching a route and
method get a latency, an error answer with Retry-After, or a dropped connection.
  set     --route PATTERN (/v1/organisation/accounts/*; ** crosses segments) [--method M]
          and one or more of --status 429|500|502|503|504 [--retry-after S], --latency MS, --drop;
          optionally --count N (the next N matches) or --probability P (0 < P <= 1)
  list    the rules, with how many requests each answered
  clear   every rule, or --id ID only

  --url URL, --client-id ID, --client-secret S   as for scheme-sim clock (env SCHEME_SIM_URL,
                                                SCHEME_SIM_CLIENT_ID, SCHEME_SIM_CLIENT_SECRET)
  --json         print the answer as JSON
  -h, --help     this help`;

const SET_OPTIONS = {
  route: { type: 'string' },
  method: { type: 'string' },
  status: { type: 'string' },
  'retry-after': { type: 'string' },
  latency: { type: 'string' },
  drop: { type: 'boolean' },
  count: { type: 'string' },
  probability: { type: 'string' },
  id: { type: 'string' },
} as const;

const numberOf = (flag: string, v: unknown) => {
  const n = Number(v);
  if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`--${flag} must be a number, got '${String(v)}'`);
  return n;
};

/** The rule a `set` asks for; the server checks it (and names what is wrong). */
function ruleOf(values: Record<string, unknown>): Record<string, unknown> {
  if (!values.route) throw new UsageError(`faults set needs --route\n${FAULTS_HELP}`);
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
): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help') return void out(FAULTS_HELP);
  if (name !== 'set' && name !== 'list' && name !== 'clear')
    throw new UsageError(`unknown faults command ${name}\n${FAULTS_HELP}`);
  const { values } = parseCommand(rest, { ...CONNECTION, ...SET_OPTIONS }, FAULTS_HELP);
  if (values.help) return void out(FAULTS_HELP);
  const { base, auth } = await connect(values, env);
  const path = `${base}/v1/simulator/faults${name === 'clear' && values.id ? `/${String(values.id)}` : ''}`;
  const init: RequestInit =
    name === 'set'
      ? {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ data: { attributes: ruleOf(values) } }),
        }
      : { method: name === 'clear' ? 'DELETE' : 'GET', headers: auth };
  const res = await request(path, init);
  const json = await readAnswer(res);
  if (values.json) return void out(JSON.stringify(json, null, 2));
  if (name === 'clear') return void out(values.id ? `fault ${String(values.id)} removed` : 'every fault removed');
  const rules = (Array.isArray(json.data) ? json.data : [json.data]) as Array<{
    id: string;
    attributes: Record<string, unknown>;
  }>;
  if (rules.length === 0) return void out('no faults');
  for (const r of rules) out(`${r.id}  ${JSON.stringify(r.attributes)}`);
}
