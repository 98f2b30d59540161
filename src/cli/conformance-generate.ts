// `scheme-sim conformance --generate`: checks generated from the target's OpenAPI document rather
// than written as scenarios, on the same three targets; the run itself is the harness's
// (features/generate/main.ts), started as cucumber is for the scenarios.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchemeClock } from '../clock/scheme-clock.ts';
import { listen } from '../node/server.ts';
import { createRuntime } from '../runtime.ts';
import { gateOnBaseline, readReport } from './baseline.ts';
import { CliError } from './cli-errors.ts';
import { compareWithSecond, type DifferentialOptions, secondTarget } from './generate-differential.ts';
import { startProxy } from './proxy.ts';
import { readAllowList } from './replay-report.ts';
import { parseCommand, usageError } from './usage.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The clock a simulator started for the run is frozen on (the scenarios', which the sim preflight expects). */
const SIM_START = '2026-12-21T09:00:00Z';

const HELP = `Usage: scheme-sim conformance --generate [--cases N] [--seed S] [--target T] [options]

Generated checks: for every operation of the target's OpenAPI document (/v1/openapi.json; the
double's own where the target publishes none), fast-check makes valid requests, which must be
answered with the documented success in its schema and read back equal, and invalid ones that
break exactly one constraint, which must be refused with a 4xx in the error shape naming the field.
Paths are filled with records made by earlier requests (create, read, list, change, delete; claim,
submission, reversal), and what the run creates is deleted after it. A failure is shrunk to the
smallest request that still fails and printed as curl with the seed that replays it. The report
goes to reports/conformance-<target>.json.

  --cases N        cases in all, shared among the operations, half valid, half invalid (default 200)
  --seed S         the seed (an integer) of the run; a run with the same seed makes the same cases
  --operation RE   only operations whose "METHOD /path" matches the regular expression
  --target T       inprocess (default), sim or staging, with the settings of the scenario runs
  --url URL        the running simulator of the sim target (else SIM_BASE_URL, else one started here)
  --reset-ok       let the sim target reset a simulator that keeps a data file
  --sandbox S      sim and staging: new (made for the run, deleted after) or a sandbox id
  --baseline F     an earlier report of the target: print what is new, fixed and still failing,
                   and exit 1 on new failures only (as for the scenarios)
  --differential URL2   --target sim only: send every generated request to a second target as
                   well and compare its answers with the first's (the replay's comparison: status,
                   error, JSON path by path; ids, timestamps and links normalised); a divergence
                   joins the report's and exits 1. URL2 defaults to the first target's simulator
                   when one of the next three is given
  --differential-sandbox ID, --differential-client-id ID, --differential-client-secret S
                   the second target's sandbox and client (else SCHEME_SIM_CLIENT_ID/_SECRET or
                   URL2's profile), as for scheme-sim replay --differential
  --allow FILE     differential divergences allowed, as scheme-sim replay --allow reads them
  -h, --help       this help

Needs fast-check (a development dependency of scheme-sim: npm ci in a checkout; another project
installs it beside scheme-sim, as it does @cucumber/cucumber for the scenarios).

The run changes the target as a client may: it creates and deletes records, moves the scheme
clock by a few working days and resets its own organisation (POST /v1/simulator/reset is one of
the operations). On a shared simulator give --sandbox new.`;

interface GenerateValues {
  generate: boolean;
  cases: string;
  seed?: string;
  operation?: string;
  target: string;
  url?: string;
  'reset-ok': boolean;
  sandbox?: string;
  baseline?: string;
  differential?: string;
  'differential-sandbox'?: string;
  'differential-client-id'?: string;
  'differential-client-secret'?: string;
  allow?: string;
  help: boolean;
}

/** The run's settings: the harness's environment, and what the CLI does around the run. */
interface Settings {
  env: Record<string, string>;
  target: string;
  url?: string;
  baseline?: string;
  differential?: DifferentialOptions;
}

/** The run's settings, checked: its environment for the harness's process. */
export function generateSettings(argv: string[]): Settings | 'help' {
  const { values } = parseCommand(
    argv,
    {
      generate: { type: 'boolean', default: false },
      cases: { type: 'string', default: '200' },
      seed: { type: 'string' },
      operation: { type: 'string' },
      target: { type: 'string', default: 'inprocess' },
      url: { type: 'string' },
      'reset-ok': { type: 'boolean', default: false },
      sandbox: { type: 'string' },
      baseline: { type: 'string' },
      differential: { type: 'string' },
      'differential-sandbox': { type: 'string' },
      'differential-client-id': { type: 'string' },
      'differential-client-secret': { type: 'string' },
      allow: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    HELP,
  ) as unknown as { values: GenerateValues };
  if (values.help) return 'help';
  const cases = Number(values.cases);
  if (!Number.isInteger(cases) || cases < 1 || cases > 1_000_000)
    throw usageError(`--cases must be a whole number from 1 to 1000000, got ${values.cases}`, HELP);
  if (values.seed !== undefined && !/^-?\d+$/.test(values.seed))
    throw usageError(`--seed must be an integer, got ${values.seed}`, HELP);
  if (values.operation !== undefined) {
    try {
      new RegExp(values.operation);
    } catch (err) {
      throw usageError(`--operation must be a regular expression: ${(err as Error).message}`, HELP);
    }
  }
  const target = values.target;
  if (target !== 'inprocess' && target !== 'sim' && target !== 'staging')
    throw new CliError(`--target must be inprocess, sim or staging, got ${target}`);
  if (values.url && target !== 'sim') throw new CliError('--url applies to --target sim only');
  if (values.sandbox !== undefined && target === 'inprocess')
    throw new CliError('--sandbox applies to --target sim or staging: in process the run has a world of its own');
  if (values.sandbox !== undefined && values.sandbox !== 'new' && !UUID.test(values.sandbox))
    throw usageError(
      `--sandbox must be new or the id (a UUID) of a sandbox of the target, got ${values.sandbox}`,
      HELP,
    );
  const env: Record<string, string> = {
    CONFORMANCE_TARGET: target,
    CONFORMANCE_GENERATE_CASES: String(cases),
    ...(values.seed !== undefined ? { CONFORMANCE_GENERATE_SEED: values.seed } : {}),
    ...(values.operation !== undefined ? { CONFORMANCE_GENERATE_OPERATION: values.operation } : {}),
    ...(values.sandbox !== undefined ? { CONFORMANCE_SANDBOX: values.sandbox } : {}),
    ...(values['reset-ok'] ? { SIM_RESET_OK: '1' } : {}),
  };
  const url = values.url ?? (target === 'sim' ? process.env.SIM_BASE_URL : undefined);
  if (values.baseline) readReport(values.baseline, '--baseline');
  const differential = differentialOf(values);
  if (differential && target !== 'sim')
    throw new CliError(
      '--differential applies to --target sim: the first target is reached through a recording proxy, so it must be a URL',
    );
  if (differential && values.sandbox === 'new')
    throw new CliError(
      "--differential takes the first target's sandbox by id: a sandbox made for the run is not made on the second",
    );
  if (values.allow && !differential) throw new CliError('--allow applies to --differential runs only');
  if (values.allow) {
    try {
      readAllowList(values.allow);
    } catch (err) {
      throw usageError(`--allow ${(err as Error).message}`, HELP);
    }
  }
  return {
    env,
    target,
    ...(url ? { url } : {}),
    ...(values.baseline ? { baseline: values.baseline } : {}),
    ...(differential ? { differential } : {}),
  };
}

/** The second target's options, when any is given. */
function differentialOf(values: GenerateValues): DifferentialOptions | undefined {
  const given = {
    ...(values.differential !== undefined ? { url: values.differential } : {}),
    ...(values['differential-sandbox'] !== undefined ? { sandbox: values['differential-sandbox'] } : {}),
    ...(values['differential-client-id'] !== undefined ? { clientId: values['differential-client-id'] } : {}),
    ...(values['differential-client-secret'] !== undefined
      ? { clientSecret: values['differential-client-secret'] }
      : {}),
  };
  if (Object.keys(given).length === 0) return undefined;
  return { ...given, ...(values.allow !== undefined ? { allow: values.allow } : {}) };
}

function run(env: Record<string, string>): Promise<number> {
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(ROOT, 'features', 'generate', 'main.ts')],
    {
      cwd: process.cwd(),
      stdio: 'inherit',
      env: { ...process.env, ...env },
    },
  );
  return new Promise((done) => child.on('close', (code) => done(code ?? 1)));
}

/** `scheme-sim conformance --generate …`; resolves with the exit code. */
export async function generateCommand(argv: string[]): Promise<number> {
  const settings = generateSettings(argv);
  if (settings === 'help') {
    console.log(HELP);
    return 0;
  }
  try {
    createRequire(join(ROOT, 'package.json')).resolve('fast-check');
  } catch {
    throw new CliError(
      'conformance --generate needs fast-check: npm ci in a checkout, or npm install fast-check beside scheme-sim',
    );
  }
  // With a baseline, the exit status follows the failures the baseline does not have (baseline.ts).
  const report = join(process.env.CONFORMANCE_REPORTS_DIR || 'reports', `conformance-${settings.target}.json`);
  const gate = (code: number) => (settings.baseline ? gateOnBaseline(code, report, settings.baseline) : code);
  if (settings.target !== 'sim') return gate(await run(settings.env));
  if (settings.url) return gate(await runAt(settings, settings.url, report));
  // No simulator named: one in memory with the fixtures, on the clock the sim preflight expects.
  const runtime = await createRuntime({ memory: true, clock: SchemeClock.frozenAt(SIM_START) });
  const server = await listen(runtime, 0, '127.0.0.1');
  console.log(`scheme-sim conformance --generate: a simulator for the sim target at ${server.url} (memory)`);
  try {
    return gate(await runAt(settings, server.url, report));
  } finally {
    await server.close();
  }
}

/**
 * The run against the simulator at `url`; differential, through a recording proxy in front of it,
 * then the recording (kept beside the report) replayed against the second target.
 */
async function runAt(settings: Settings, url: string, report: string): Promise<number> {
  if (!settings.differential) return run({ ...settings.env, SIM_BASE_URL: url });
  // The second target is resolved before anything is sent: a missing client stops the run first.
  const second = await secondTarget(settings.differential, url, process.env);
  mkdirSync(dirname(report), { recursive: true });
  const recording = report.replace(/\.json$/, '-requests.jsonl');
  const proxy = await startProxy(url, recording);
  let code: number;
  try {
    code = await run({ ...settings.env, SIM_BASE_URL: proxy.url, CONFORMANCE_GENERATE_LABELS: '1' });
  } finally {
    await proxy.close();
  }
  if (code === 2) return code;
  const diverged = await compareWithSecond(recording, second, url, settings.differential.allow, report);
  return Math.max(code, diverged);
}
