#!/usr/bin/env node
// The `scheme-sim` command's entry (bin/scheme-sim.mjs runs it): the overall help, and which
// command's module a first argument hands the rest of the line to.
import { packageVersion } from '../package-files.ts';
import { apiCommand } from './api-commands.ts';
import { UsageError } from './cli-errors.ts';
import { clockCommand } from './clock.ts';
import { conformanceCommand } from './conformance.ts';
import { copCommand } from './cop.ts';
import { doctorCommand } from './doctor.ts';
import { faultsCommand } from './faults.ts';
import { logsCommand } from './follow.ts';
import { keysCommand } from './keys.ts';
import { listenCommand } from './listen.ts';
import { nodesCommand } from './nodes.ts';
import { profilesCommand } from './profiles.ts';
import { proxyCommand } from './proxy.ts';
import { replayCommand } from './replay.ts';
import { sandboxCommand } from './sandbox.ts';
import { startCommand } from './start.ts';
import { triggerCommand } from './trigger.ts';
import { didYouMean } from './usage.ts';

const HELP: Record<string, string> = {
  main: `scheme-sim: a local double of a Form3-style payments API on a controllable scheme clock

Usage: scheme-sim <command> [options]

Commands:
  start     run the simulator (HTTP/JSON on --port)
  clock     show, advance, freeze or resume the scheme clock of a running simulator
  doctor    check a data file as start-up does (damage, records, lost keys), and optionally repair it
  keys      create a key pair for signing requests as Form3's Go SDK does, or rotate the
            key notifications are signed with
  faults    set, list or clear fault rules (latency, 429/5xx, dropped connections) on a running simulator
  trigger   play a scenario (a failed validation or delivery, a late contra, ...) on a running simulator
  cop ask   ask whether a name matches a payee account (Form3's name verification API)
  reset     reset your organisation (or, --all, everything) on a running simulator
  calendar  Bacs working days and bank holidays (--from, --to)
  reports   inject TYPE: a report of the catalogue arrives now
  deliveries  notification delivery attempts (--failed); redeliver ID sends one again
  requests  the request journal (--status 4xx, --method, --path, --error-code)
  logs      requests and deliveries as lines; --follow keeps tailing
  listen    a temporary webhook printing notifications, --forward-to a local URL
  profiles  the simulators the CLI knows of (live or stale); --prune removes the stale ones
  sandbox   create, list, show or delete sandboxes: isolated worlds on one running simulator
  nodes     the nodes of a shared double on one PostgreSQL (start --node): live ones, who owns what
  conformance
            run the Gherkin conformance features against inprocess, a running sim, or staging
  proxy     pass a client's traffic to a target and record every exchange, secrets masked
  replay    replay a recording against a target (or two: --differential) and show where it diverges
Run 'scheme-sim <command> --help' for the options of a command; scheme-sim --version for the version.
A running simulator is found by --url/--client-id/--client-secret, SCHEME_SIM_URL/_CLIENT_ID/_CLIENT_SECRET,
or the profile each simulator writes (~/.scheme-sim/profiles/HOST_PORT.json, or the one file
SCHEME_SIM_PROFILE names); each command names on stderr the URL it uses and where it came from.
--sandbox ID (or SCHEME_SIM_SANDBOX) points any of them at a sandbox (scheme-sim sandbox --help).
Usage errors exit 2, refusals 1.`,
};

const COMMANDS = [
  'start',
  'clock',
  'doctor',
  'keys',
  'faults',
  'trigger',
  'cop',
  'reset',
  'calendar',
  'reports',
  'deliveries',
  'redeliver',
  'requests',
  'logs',
  'listen',
  'profiles',
  'sandbox',
  'nodes',
  'conformance',
  'proxy',
  'replay',
  'help',
  'version',
];

function fail(message: string): never {
  console.error(`scheme-sim: ${message}`);
  process.exit(2);
}

/** Exit 0 when done, 2 for a usage error, 1 for anything the simulator refused or could not do. */
function finish(run: Promise<void>): Promise<void> {
  return run.then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(`scheme-sim: ${(err as Error).message}`);
      process.exit(err instanceof UsageError ? 2 : 1);
    },
  );
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start':
      return startCommand(rest);
    case 'clock':
      return finish(clockCommand(rest));
    case 'conformance':
      return conformanceCommand(rest).then(
        (code) => process.exit(code),
        (err: unknown) => fail((err as Error).message),
      );
    case 'proxy':
    case 'replay':
      return (command === 'proxy' ? proxyCommand : replayCommand)(rest).then(
        (code) => process.exit(code),
        (err: unknown) => {
          console.error(`scheme-sim: ${(err as Error).message}`);
          process.exit(err instanceof UsageError ? 2 : 1);
        },
      );
    case 'reset':
    case 'calendar':
    case 'reports':
    case 'deliveries':
    case 'redeliver':
    case 'requests':
      return finish(apiCommand(command, rest));
    case 'profiles':
      return finish(profilesCommand(rest));
    case 'sandbox':
      return finish(sandboxCommand(rest));
    case 'logs':
    case 'listen': {
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      const run = command === 'logs' ? logsCommand : listenCommand;
      return finish(run(rest, console.log, process.env, stop.signal));
    }
    case '--version':
    case '-v':
    case 'version':
      return void console.log(packageVersion());
    case 'trigger':
      return finish(triggerCommand(rest));
    case 'nodes':
      return finish(nodesCommand(rest));
    case 'cop':
      return finish(copCommand(rest));
    case 'faults':
      return finish(faultsCommand(rest));
    case 'keys':
      try {
        return Promise.resolve(keysCommand(rest)).then(
          (code) => process.exit(code),
          (err: unknown) => fail((err as Error).message),
        );
      } catch (err) {
        return fail((err as Error).message);
      }
    case 'doctor':
      return doctorCommand(rest).then(
        (code) => process.exit(code),
        (err: unknown) => {
          console.error(`scheme-sim: ${(err as Error).message}`);
          process.exit(2);
        },
      );
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      return void console.log(HELP.main);
    default:
      fail(`unknown command '${command}'${didYouMean(command, COMMANDS)}\n${HELP.main}`);
  }
}

await main(process.argv.slice(2)).catch((err: Error) => fail(err.message));
