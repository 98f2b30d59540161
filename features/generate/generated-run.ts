// `scheme-sim conformance --generate`: every operation of the target's OpenAPI document exercised by
// fast-check with valid and invalid requests; a failure shrunk by fast-check to the smallest request
// that still fails and printed as curl with the seed that replays it. The result is a run report
// (reports/conformance-<target>.json) like a scenario run's, with the counts per operation.
import fc from 'fast-check';
import type { RunReport } from '../support/run-report.ts';
import type { Target } from '../support/targets.ts';
import { ApiDocument, type ApiOperation } from './api-document.ts';
import { curlOf } from './curl.ts';
import { ExchangeClient } from './exchange-client.ts';
import { minimise } from './minimise.ts';
import { type CaseResult, invalidInputs, OperationCases, validInputs } from './operation-cases.ts';
import { PathInstances } from './path-instances.ts';

export interface GenerateOptions {
  /** Cases in all, shared evenly among the operations, half valid and half invalid (at least one each). */
  cases: number;
  seed: number;
  /** Only the operations whose `METHOD /path` matches. */
  only?: RegExp;
  /** Name each request's case in a header (exchange-client.ts), for a differential run's recording. */
  labelRequests?: boolean;
  log?: (line: string) => void;
}

export interface OperationCount {
  operation: string;
  valid: { sent: number; accepted: number; documented: number; unexercisable?: string };
  invalid: { sent: number; refused: number; documented: number; rules: string[]; unexercisable?: string };
}

export interface GeneratedFailure {
  operation: string;
  kind: 'valid' | 'invalid';
  problem: string;
  /** The constraint an invalid case broke (`pattern at data.attributes.country`). */
  broke?: string;
  curl: string;
  seed: number;
  /** fast-check's path to the shrunk case within the seeded run. */
  path: string;
}

export interface GeneratedReport extends RunReport {
  generated: {
    seed: number;
    cases: number;
    operations: OperationCount[];
    failures: GeneratedFailure[];
    left_behind: string[];
  };
}

/** A seed per operation from the run's seed and its name, so one operation's cases do not move another's. */
function seedOf(seed: number, key: string): number {
  let h = seed | 0;
  for (const c of key) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}

/**
 * The order operations run in: the ones that change the world for everyone (the clock, a reset)
 * last, so the records the others make are not swept away under them.
 */
function order(ops: ApiOperation[]): ApiOperation[] {
  const late = (o: ApiOperation) =>
    o.path === '/v1/simulator/reset' ? 2 : o.path.startsWith('/v1/simulator/clock') ? 1 : 0;
  return [...ops].sort((a, b) => late(a) - late(b));
}

/** The document the target publishes; where it publishes none (staging), the double's own. */
export async function documentOf(
  target: Target,
  fallback: () => Promise<Record<string, unknown>>,
): Promise<ApiDocument> {
  const res = await target.fetch(new Request(`${target.baseUrl}/v1/openapi.json`));
  if (res.status === 200) return new ApiDocument((await res.json()) as Record<string, unknown>);
  return new ApiDocument(await fallback());
}

export async function runGenerated(
  target: Target,
  doc: ApiDocument,
  options: GenerateOptions,
): Promise<GeneratedReport> {
  const log = options.log ?? (() => {});
  const client = new ExchangeClient(target);
  const bank = target.clients.default?.bank ?? target.bank;
  const instances = new PathInstances(doc, client, bank, target.cop);
  const cases = new OperationCases(doc, client, instances, target.cop.participant);
  const ops = order(doc.operations.filter((o) => !options.only || options.only.test(o.key)));
  const each = Math.max(1, Math.floor(options.cases / (2 * Math.max(1, ops.length))));
  const counts: OperationCount[] = [];
  const failures: GeneratedFailure[] = [];
  const scenarios: RunReport['scenarios'] = [];

  for (const op of ops) {
    const count: OperationCount = {
      operation: op.key,
      valid: { sent: 0, accepted: 0, documented: 0 },
      invalid: { sent: 0, refused: 0, documented: 0, rules: [] },
    };
    counts.push(count);
    const rules = new Set<string>();
    for (const kind of ['valid', 'invalid'] as const) {
      const seed = seedOf(options.seed, `${kind} ${op.key}`);
      if (options.labelRequests) client.label = `${kind} ${op.key}`;
      let last: CaseResult | undefined;
      const judge = async (input: any): Promise<CaseResult> => {
        const r = kind === 'valid' ? await cases.valid(op, input) : await cases.invalid(op, input);
        last = r;
        return r;
      };
      const arbitrary = kind === 'valid' ? validInputs(op, instances) : invalidInputs(op, instances);
      const runs: CaseResult[] = [];
      const property = fc.asyncProperty(arbitrary, async (input) => {
        const r = await judge(input);
        runs.push(r);
        return r.ok;
      });
      const details = await fc.check(property, { numRuns: each, seed, maxSkipsPerRun: 20 });
      // Counted over the run's own cases, not the shrinking's.
      const counted = runs.slice(0, details.numRuns);
      const tally = kind === 'valid' ? count.valid : count.invalid;
      for (const r of counted) {
        if (r.problem?.startsWith('unexercisable') || r.problem?.startsWith('nothing to break')) {
          tally.unexercisable = r.problem;
          continue;
        }
        tally.sent++;
        if (r.ok && kind === 'valid') r.documented ? count.valid.documented++ : count.valid.accepted++;
        if (r.ok && kind === 'invalid') r.documented ? count.invalid.documented++ : count.invalid.refused++;
        if (r.broke) rules.add(r.broke.split(' ')[0]!);
      }
      let outcome: 'passed' | 'failed' | 'skipped' = 'passed';
      let reason: string | undefined;
      if (tally.sent === 0 && tally.unexercisable) {
        outcome = 'skipped';
        reason = tally.unexercisable;
      }
      if (details.failed) {
        outcome = 'failed';
        if (details.counterexample) {
          const shrunk = details.counterexample[0] as { body?: unknown; force?: string };
          const first = await judge(shrunk);
          // Then the body cut down to what the failure needs, the same break kept (minimise.ts).
          if (shrunk.body !== undefined && !first.ok) {
            const force = kind === 'invalid' ? first.broke : undefined;
            const fails = async (body: unknown) => !(await judge({ ...shrunk, body, ...(force ? { force } : {}) })).ok;
            const body = await minimise(shrunk.body, fails);
            await judge({ ...shrunk, body, ...(force ? { force } : {}) });
          }
        }
        const problem = last?.problem ?? String(details.errorInstance ?? 'failed');
        const failure: GeneratedFailure = {
          operation: op.key,
          kind,
          problem,
          ...(last?.broke ? { broke: last.broke } : {}),
          curl: last?.exchange ? curlOf(target.baseUrl, last.exchange.sent) : '(no request was sent)',
          seed: options.seed,
          path: details.counterexamplePath ?? '',
        };
        failures.push(failure);
        reason = problem;
        log(`FAILED ${kind} ${op.key}: ${problem}\n  ${failure.curl}\n  replay: --seed ${options.seed}`);
      }
      scenarios.push({
        flow: op.tag,
        name: `${kind} ${op.key}`,
        location: `generated:${kind}:${op.key}`,
        outcome,
        ...(reason ? { reason } : {}),
      });
    }
    count.invalid.rules = [...rules].sort();
    log(
      `${op.key}: valid ${count.valid.accepted}+${count.valid.documented} documented/${count.valid.sent}${count.valid.unexercisable ? ' (unexercisable)' : ''}, invalid ${count.invalid.refused}/${count.invalid.sent}${count.invalid.unexercisable ? ' (nothing to break)' : ''}`,
    );
  }
  if (options.labelRequests) client.label = 'clean-up';
  const leftBehind = await instances.cleanUp();
  const report: GeneratedReport = {
    target: target.name,
    base_url: target.baseUrl,
    finished_at: new Date().toISOString(),
    totals: { passed: 0, failed: 0, skipped: 0 },
    flows: {},
    scenarios,
    divergences: failures.map((f) => ({
      flow: doc.operations.find((o) => o.key === f.operation)?.tag ?? 'untagged',
      scenario: `${f.kind} ${f.operation}`,
      location: `generated:${f.kind}:${f.operation}`,
      // What failed, without what varies from run to run (ids), so a baseline matches it again.
      case: `${f.problem
        .split(': ')
        .slice(0, f.broke ? 2 : 1)
        .join(': ')
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}')}`,
      expected: f.kind === 'valid' ? 'the documented success, valid and read back equal' : 'a 4xx naming the field',
      actual: `${f.problem}\n${f.curl}`,
    })),
    generated: { seed: options.seed, cases: options.cases, operations: counts, failures, left_behind: leftBehind },
  };
  for (const s of scenarios) {
    report.totals[s.outcome]++;
    report.flows[s.flow] ??= { passed: 0, failed: 0, skipped: 0 };
    report.flows[s.flow]![s.outcome]++;
  }
  return report;
}
