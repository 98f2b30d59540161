// `scheme-sim conformance`: a user runs the shipped Gherkin harness against any of its three targets
// with one command, its settings checked before cucumber starts.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchemeClock } from '../clock/scheme-clock.ts';
import { listen } from '../node/server.ts';
import { createRuntime } from '../runtime.ts';
import { gateOnBaseline, readReport } from './baseline.ts';
import { CliError } from './cli-errors.ts';
import { generateCommand } from './conformance-generate.ts';
import { didYouMean, parseCommand, usageError } from './usage.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Cucumber's runner, found as Node finds packages from scheme-sim's folder (its own or the project's). */
function cucumberBin(): string | undefined {
  try {
    const pkg = createRequire(join(ROOT, 'package.json')).resolve('@cucumber/cucumber/package.json');
    return join(dirname(pkg), 'bin', 'cucumber.js');
  } catch {
    return undefined;
  }
}
/** The instant the scenarios' dates are written for (features/support/sim-target.ts). */
const SCENARIO_START = '2026-12-21T09:00:00Z';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const HELP = `Usage: scheme-sim conformance --target inprocess|sim|staging [options]

Runs the Gherkin conformance features (scheme-sim's features/) against a target, after a preflight
that checks its settings once. Reports go to reports/cucumber.html, .junit.xml and .ndjson in the
working directory.

  --target T    inprocess (default): the simulator in this process, every scenario;
                sim: a running simulator (--url, else SIM_BASE_URL, else one started here in
                memory with the clock the scenarios expect); reset before every scenario;
                staging: real staging (CONFORMANCE_* settings or conformance.json; see README)
  --url URL     the running simulator of the sim target
  --reset-ok    let the sim target reset a simulator that keeps a data file
  --sandbox S   sim and staging: run in a sandbox of the target (CONFORMANCE_SANDBOX): new
                creates one for the run with the clock and settings it needs and deletes it
                after; a sandbox id runs in that one and leaves it
  --tags EXPR   only scenarios matching a cucumber tag expression (and the target's own tags);
                each flow has its tag: @accounts, @auth, @claims, @clock, @cop, @faults,
                @notifications, @observability, @reports, @scenarios, @store, @tenancy
  --feature P   only this feature file (features/claims.feature, or :LINE for one scenario, or a
                folder); relative to the working directory, else to scheme-sim's own folder;
                may be given more than once
  --name REGEX  only scenarios whose name matches the regular expression
  --baseline F  an earlier reports/conformance-<target>.json: print what is new, fixed and still
                diverging, and exit 1 on new divergences only (docs/conformance.md)
  --generate    checks generated from the target's OpenAPI document instead of the scenarios
                (conformance --generate --help)
  -h, --help    this help

Needs @cucumber/cucumber and the harness's other optional peers (package.json peerDependencies):
a checkout of scheme-sim has them after npm ci; another project installs them beside scheme-sim.`;

/** Which scenarios a run takes: a tag expression, feature files (or lines), a name pattern. */
interface Selection {
  tags?: string;
  features: string[];
  name?: string;
}

/**
 * `features/claims.feature[:LINE]` as given: relative to the working directory, else to scheme-sim's
 * own folder (a project that installed scheme-sim names the features as the README does), else a
 * bare file name in scheme-sim's features/. A path that names nothing is a usage error with the
 * nearest feature file.
 */
export function featurePath(given: string, cwd = process.cwd()): string {
  const m = /^(.*?)((?::\d+)*)$/.exec(given)!;
  const [path, lines] = [m[1]!, m[2] ?? ''];
  for (const candidate of [resolve(cwd, path), resolve(ROOT, path), join(ROOT, 'features', path)])
    if (existsSync(candidate)) return `${candidate}${lines}`;
  const known = readdirSync(join(ROOT, 'features'))
    .filter((f) => f.endsWith('.feature'))
    .map((f) => `features/${f}`);
  throw usageError(`--feature ${given}: no such feature file or folder${didYouMean(path, known)}`, HELP);
}

/** Runs cucumber with a profile and extra environment; resolves with its exit code. */
function cucumber(profile: string | undefined, selection: Selection, env: Record<string, string>): Promise<number> {
  const args = [
    cucumberBin()!,
    '--config', // cucumber reads it relative to the working directory
    relative(process.cwd(), join(ROOT, 'cucumber.mjs')),
    ...(profile ? ['--profile', profile] : []),
    ...(selection.tags ? ['--tags', selection.tags] : []),
    ...(selection.name ? ['--name', selection.name] : []),
    ...(selection.features.length ? selection.features : [join(ROOT, 'features', '**', '*.feature')]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: process.cwd(),
    stdio: 'inherit',
    // tsx from scheme-sim's own dependencies (the working directory may be another project's).
    env: {
      ...process.env,
      ...env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${import.meta.resolve('tsx')}`.trim(),
    },
  });
  return new Promise((done) => child.on('close', (code) => done(code ?? 1)));
}

/** `scheme-sim conformance`: the harness's three targets behind one command; resolves with the exit code. */
export async function conformanceCommand(argv: string[]): Promise<number> {
  if (argv.includes('--generate')) return generateCommand(argv);
  const { values } = parseCommand(
    argv,
    {
      target: { type: 'string', default: 'inprocess' },
      url: { type: 'string' },
      'reset-ok': { type: 'boolean', default: false },
      sandbox: { type: 'string' },
      tags: { type: 'string' },
      feature: { type: 'string', multiple: true },
      name: { type: 'string' },
      baseline: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    HELP,
  ) as unknown as {
    values: {
      target: string;
      url?: string;
      'reset-ok': boolean;
      sandbox?: string;
      tags?: string;
      feature?: string[];
      name?: string;
      baseline?: string;
      help: boolean;
    };
  };
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const target = values.target;
  if (target !== 'inprocess' && target !== 'sim' && target !== 'staging')
    throw new CliError(`--target must be inprocess, sim or staging, got ${target}`);
  if (values.url && target !== 'sim') throw new CliError('--url applies to --target sim only');
  if (values.sandbox !== undefined && target === 'inprocess')
    throw new CliError(
      '--sandbox applies to --target sim or staging: in process every scenario has a world of its own',
    );
  if (values.sandbox !== undefined && values.sandbox !== 'new' && !UUID.test(values.sandbox))
    throw usageError(
      `--sandbox must be new or the id (a UUID) of a sandbox of the target, got ${values.sandbox}`,
      HELP,
    );
  // The run's hooks create, use and delete the sandbox (features/support/sandbox.ts).
  const sandbox: Record<string, string> = values.sandbox !== undefined ? { CONFORMANCE_SANDBOX: values.sandbox } : {};
  if (values.name !== undefined) {
    try {
      new RegExp(values.name);
    } catch (err) {
      throw usageError(`--name must be a regular expression: ${(err as Error).message}`, HELP);
    }
  }
  const selection: Selection = {
    features: (values.feature ?? []).map((f) => featurePath(f)),
    ...(values.tags ? { tags: values.tags } : {}),
    ...(values.name !== undefined ? { name: values.name } : {}),
  };
  const runner = cucumberBin();
  if (!runner || !existsSync(runner))
    throw new CliError(
      'the conformance runner needs @cucumber/cucumber (and the harness peers in package.json): npm ci in a checkout, or npm install them beside scheme-sim',
    );
  // With a baseline, the exit status follows the divergences the baseline does not have (baseline.ts).
  const baseline = values.baseline;
  if (baseline) readReport(baseline, '--baseline');
  const report = join(process.env.CONFORMANCE_REPORTS_DIR || 'reports', `conformance-${target}.json`);
  const gate = (code: number) => (baseline ? gateOnBaseline(code, report, baseline) : code);
  if (target === 'inprocess') return gate(await cucumber(undefined, selection, {}));
  if (target === 'staging') return gate(await cucumber('staging', selection, sandbox));

  const given = values.url ?? process.env.SIM_BASE_URL;
  if (given)
    console.error(`scheme-sim conformance: the sim target at ${given} (from ${values.url ? '--url' : 'SIM_BASE_URL'})`);
  if (given)
    return gate(
      await cucumber('sim', selection, {
        SIM_BASE_URL: given,
        ...(values['reset-ok'] ? { SIM_RESET_OK: '1' } : {}),
        ...sandbox,
      }),
    );
  // No simulator named: start one in memory, with the clock the scenarios were written for.
  const runtime = await createRuntime({ memory: true, clock: SchemeClock.frozenAt(SCENARIO_START) });
  const server = await listen(runtime, 0, '127.0.0.1');
  console.log(
    `scheme-sim conformance: a simulator for the sim target at ${server.url} (memory, clock frozen at ${SCENARIO_START})`,
  );
  try {
    return gate(await cucumber('sim', selection, { SIM_BASE_URL: server.url, ...sandbox }));
  } finally {
    await server.close();
  }
}
