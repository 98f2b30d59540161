// `scheme-sim conformance --generate --differential URL2`: the generated requests go to the first
// target through the recording proxy (proxy.ts), then the recording is replayed against the second
// (replay-engine.ts), each answer compared with the first's by the replay's own comparison
// (exchange-compare.ts): the same requests, the same bodies, each target's ids mapped. What differs
// is named by generated case, request and JSON path, and joins the run report's divergences, so
// --baseline reads it as it reads failures.
import { readFileSync, writeFileSync } from 'node:fs';
import { CliError } from './cli-errors.ts';
import { connect, organisationOf } from './connection.ts';
import { readRecording } from './exchange-record.ts';
import { type ExchangeOutcome, type ReplayTarget, replayExchanges, replayTarget } from './replay-engine.ts';
import { allowListOf, divergenceKey, type ReportedDivergence, readAllowList, show, table } from './replay-report.ts';

/** The second target as given: any of these makes the run differential. */
export interface DifferentialOptions {
  url?: string;
  sandbox?: string;
  clientId?: string;
  clientSecret?: string;
  /** An allow-list file, as `scheme-sim replay --allow` reads it. */
  allow?: string;
}

/**
 * What differs between any two targets by nature, not by drift (the simulator's choice): each
 * target's own signing keys; its request journal, which is its view of its own connections (host,
 * timing, headers); what its webhook attempts did by a moment, which runs on its own time (the
 * run's subscriptions deliver to a closed port and are retried), and so how much a sandbox holds;
 * and a sandbox's clock made running, whose reading is when it is asked. Shown as allowed, never
 * counted.
 */
export const BY_NATURE = `
GET /v1/platform/security/signing_keys* $.data*.attributes.public_key
GET /v1/simulator/requests *
* /v1/simulator/deliveries* *
POST /v1/simulator/reset $.meta.reset.records.notification_delivery_attempts
* /v1/simulator/sandboxes* $.data*.attributes.record_count
* /v1/simulator/sandboxes* $.data*.attributes.clock.*
`;

/** The header each generated request names its case in (features/generate/exchange-client.ts). */
const CASE_HEADER = 'x-scheme-sim-case';

/** The second target, resolved as `scheme-sim replay --differential…` resolves it. */
export async function secondTarget(
  options: DifferentialOptions,
  firstUrl: string,
  env: NodeJS.ProcessEnv,
): Promise<ReplayTarget> {
  const conn = await connect(
    {
      url: options.url ?? firstUrl,
      sandbox: options.sandbox,
      'client-id': options.clientId,
      'client-secret': options.clientSecret,
    },
    { ...env, SCHEME_SIM_SANDBOX: '' },
  );
  if (!conn.client)
    throw new CliError(
      `--differential: no client for ${conn.base}; give --differential-client-id and --differential-client-secret (or SCHEME_SIM_CLIENT_ID/_SECRET)`,
    );
  const organisation = await organisationOf(conn).catch(() => undefined);
  return replayTarget(conn.base, conn.client, organisation);
}

/**
 * A divergence of the run: an operation's answers differ at one place, however many generated
 * cases met it (one planted difference is one divergence, not one per request that showed it).
 */
export interface GeneratedDivergence extends ReportedDivergence {
  /** The operation whose answer differs (`POST /v1/transaction/claims/{id}/submissions`), its place
   * in `case` (`$.data.attributes.settlement_date (renamed)`, `status (status)`), and in `location`
   * the recording's line of its first occurrence. */
  scenario: string;
  /** How many answers diverged so. */
  count: number;
  /** The generated cases whose requests met it, first first: `valid POST /v1/transaction/claims/{id}/submissions`. */
  cases: string[];
}

/** Array positions as `[*]`: one divergence of a list's items, wherever the item sits. */
const anyPosition = (path: string) => path.replace(/\[\d+\]/g, '[*]');

/** The flow of a generated case's operation (its tag), from the run report's scenarios. */
const flowOf = (flows: Map<string, string>, scenario: string, fallback: string) => flows.get(scenario) ?? fallback;

/** The outcomes as divergences by operation and path: counted, excused by the allow-list or not. */
export function generatedDivergences(
  outcomes: ExchangeOutcome[],
  cases: Map<number, string>,
  flows: Map<string, string>,
  allow: RegExp[],
  recording: string,
): { divergences: GeneratedDivergence[]; allowed: GeneratedDivergence[] } {
  const found = new Map<string, GeneratedDivergence & { excused: boolean }>();
  for (const o of outcomes)
    for (const d of o.divergences) {
      const by = cases.get(o.seq) ?? 'run set-up';
      const scenario = `${o.method} ${o.template}`;
      const at = `${anyPosition(d.path)} (${d.kind})`;
      const key = `${scenario}\n${at}`;
      const known = found.get(key);
      if (known) {
        known.count++;
        if (!known.cases.includes(by)) known.cases.push(by);
        continue;
      }
      found.set(key, {
        flow: flowOf(flows, by, o.flow),
        scenario,
        location: `${recording}:${o.seq}`,
        case: at,
        expected: d.expected,
        actual: d.actual,
        count: 1,
        cases: [by],
        excused: allow.some((a) => a.test(divergenceKey(o, d))),
      });
    }
  const all = [...found.values()];
  const strip = ({ excused: _, ...d }: GeneratedDivergence & { excused: boolean }) => d;
  return { divergences: all.filter((d) => !d.excused).map(strip), allowed: all.filter((d) => d.excused).map(strip) };
}

/** The table of a differential run: one row per operation and path, with the case that met it first. */
export function differentialTable(
  run: { first: string; second: string; exchanges: number },
  found: { divergences: GeneratedDivergence[]; allowed: GeneratedDivergence[] },
): string[] {
  const rows = (list: GeneratedDivergence[]) => [
    ['operation', 'where', 'first', 'second', 'case'],
    ...list.map((d) => [
      d.scenario,
      d.case,
      show(d.expected),
      show(d.actual),
      `${d.cases[0]}${d.cases.length > 1 ? ` (+${d.cases.length - 1} more)` : ''}`,
    ]),
  ];
  const lines = [
    '',
    `Differential: ${run.exchanges} requests to ${run.first} and ${run.second}, the second's answers compared with the first's: ${found.divergences.length} divergences`,
  ];
  if (found.divergences.length > 0)
    lines.push(`Divergences (${found.divergences.length}):`, ...table(rows(found.divergences)));
  if (found.allowed.length > 0)
    lines.push(
      `Allowed (each target's own by nature, or --allow) (${found.allowed.length}):`,
      ...table(rows(found.allowed)),
    );
  return lines;
}

/**
 * Replays the run's recording against the second target, adds what diverged to the run report
 * (`reportFile`, written by the run) and prints the table; resolves with 1 on a divergence.
 */
export async function compareWithSecond(
  recording: string,
  second: ReplayTarget,
  firstUrl: string,
  allowFile: string | undefined,
  reportFile: string,
  out: (line: string) => void = console.log,
): Promise<number> {
  const exchanges = readRecording(recording);
  const cases = new Map(
    exchanges.flatMap((e) => (e.request.headers[CASE_HEADER] ? [[e.seq, e.request.headers[CASE_HEADER]!]] : [])),
  );
  const outcomes = await replayExchanges(exchanges, [second]);
  let report: { scenarios: Array<{ name: string; flow: string }>; divergences: unknown[] } & Record<string, unknown>;
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8'));
  } catch (err) {
    throw new CliError(
      `conformance --generate --differential: no run report at ${reportFile} (${(err as Error).message})`,
    );
  }
  const flows = new Map<string, string>(report.scenarios.map((s) => [s.name, s.flow]));
  const allow = [
    ...allowListOf(BY_NATURE, 'the allowed-by-nature list'),
    ...(allowFile ? readAllowList(allowFile) : []),
  ];
  const found = generatedDivergences(outcomes, cases, flows, allow, recording);
  report.divergences = [...report.divergences, ...found.divergences];
  report.differential = {
    first: firstUrl,
    second: second.base,
    recording,
    exchanges: outcomes.length,
    divergences: found.divergences.length,
    allowed: found.allowed,
  };
  writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
  for (const line of differentialTable({ first: firstUrl, second: second.base, exchanges: outcomes.length }, found))
    out(line);
  return found.divergences.length > 0 ? 1 : 0;
}
