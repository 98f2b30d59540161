#!/usr/bin/env node
import { clockCommand } from './clock.ts';
import { conformanceCommand } from './conformance.ts';
import { CliError } from './connection.ts';
import { doctorCommand } from './doctor.ts';
import { faultsCommand } from './faults.ts';
import { keysCommand } from './keys.ts';
import { startCommand } from './start.ts';
import { triggerCommand } from './trigger.ts';

const HELP: Record<string, string> = {
  main: `scheme-sim: a local double of a Form3-style payments API on a controllable scheme clock

Usage: scheme-sim <command> [options]

Commands:
  start     run the simulator (HTTP/JSON on --port)
  clock     show, advance, freeze or resume the scheme clock of a running simulator
  doctor    check a data file's records as start-up does, and optionally drop the bad ones
  keys      create a key pair for signing requests as Form3's Go SDK does, or rotate the
            key notifications are signed with
  faults    set, list or clear fault rules (latency, 429/5xx, dropped connections) on a running simulator
  trigger   play a scenario (a failed validation or delivery, a late contra, ...) on a running simulator
  conformance
            run the Gherkin conformance features against inprocess, a running sim, or staging
Run 'scheme-sim <command> --help' for the options of a command.`,
};

function fail(message: string): never {
  console.error(`scheme-sim: ${message}`);
  process.exit(2);
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start':
      return startCommand(rest);
    case 'clock':
      return clockCommand(rest).catch((err: unknown) => {
        if (!(err instanceof CliError)) throw err;
        console.error(`scheme-sim: ${err.message}`);
        process.exit(1);
      });
    case 'conformance':
      return conformanceCommand(rest).then(
        (code) => process.exit(code),
        (err: unknown) => fail((err as Error).message),
      );
    case 'trigger':
      return triggerCommand(rest).then(
        () => process.exit(0),
        (err: unknown) => fail((err as Error).message),
      );
    case 'faults':
      return faultsCommand(rest).then(
        () => process.exit(0),
        (err: unknown) => fail((err as Error).message),
      );
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
      fail(`unknown command ${command}\n${HELP.main}`);
  }
}

await main(process.argv.slice(2)).catch((err: Error) => fail(err.message));
