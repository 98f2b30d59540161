#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { createRuntime, FIXTURES_DIR } from './runtime.ts';
import { listen } from './server.ts';
import { readJsonFile } from './sim/simulator.ts';
import type { OAuthClient } from './api/auth/clients.ts';

const HELP: Record<string, string> = {
  main: `scheme-sim: a local double of a Form3-style payments API on a controllable scheme clock

Usage: scheme-sim <command> [options]

Commands:
  start     run the simulator (HTTP/JSON on --port)
Run 'scheme-sim <command> --help' for the options of a command.`,
  start: `Usage: scheme-sim start [options]

  --port N            port to listen on (default 8080; 0 picks a free one)
  --host H            address to bind (default 127.0.0.1)
  --data FILE         JSON data file (default ./data/sim.json); created when missing
  --memory            keep everything in memory (nothing survives a restart)
  --clients FILE      OAuth clients (default fixtures/clients.json)
  --auth on|off       'off' accepts calls without a token, as the default organisation
  --token-ttl SECONDS lifetime of access tokens (default 3600)
  --cop-strict        name verification demands x-fapi-financial-id and x-jws-signature
  --no-seed           do not load fixtures/accounts.json into an empty store
  -h, --help          this help`,
};

function fail(message: string): never {
  console.error(`scheme-sim: ${message}`);
  process.exit(2);
}

async function start(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      data: { type: 'string' },
      memory: { type: 'boolean', default: false },
      clients: { type: 'string' },
      auth: { type: 'string', default: 'on' },
      'token-ttl': { type: 'string' },
      'cop-strict': { type: 'boolean', default: false },
      'no-seed': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) return void console.log(HELP.start);
  if (values.memory && values.data) fail('--data and --memory exclude each other');
  if (values.auth !== 'on' && values.auth !== 'off') fail(`--auth must be on or off, got ${values.auth}`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0–65535, got ${values.port}`);
  const ttl = values['token-ttl'] === undefined ? undefined : Number(values['token-ttl']);
  if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0)) fail('--token-ttl must be a positive integer');

  const data = values.memory ? undefined : (values.data ?? join(process.cwd(), 'data', 'sim.json'));
  const runtime = await createRuntime({
    ...(data ? { data } : { memory: true }),
    ...(values.clients ? { clientsFile: values.clients } : {}),
    auth: values.auth,
    ...(ttl ? { tokenTtlSeconds: ttl } : {}),
    copStrict: values['cop-strict'],
    seedAccounts: !values['no-seed'],
  }).catch((err: Error) => fail(err.message));
  const server = await listen(runtime, port, values.host).catch((err: Error) => fail(`cannot listen on ${values.host}:${port}: ${err.message}`));

  const clients = readJsonFile<OAuthClient[]>(values.clients ?? join(FIXTURES_DIR, 'clients.json'));
  const dev = clients[0]!;
  console.log(`scheme-sim listening on ${server.url}`);
  console.log(`  store:  ${runtime.sim.store.location}`);
  console.log(`  clock:  ${runtime.sim.clock.mode} at ${runtime.sim.clock.now().toISOString()}`);
  console.log(`  auth:   ${values.auth}`);
  console.log(`  cop:    ${runtime.sim.participants.all().length} participants, ${runtime.sim.accounts.repo.rows.size} accounts${values['cop-strict'] ? ', strict headers' : ''}`);
  console.log(`  dev client: ${dev.client_id} / ${dev.client_secret} (organisation ${dev.organisation_id})`);
  console.log(`  token:  curl -s -u ${dev.client_id}:${dev.client_secret} -d grant_type=client_credentials ${server.url}/v1/oauth2/token`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`scheme-sim: ${signal}, stopping`);
    server.close().then(
      () => process.exit(0),
      (err: Error) => {
        console.error(`scheme-sim: error while stopping: ${err.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start':
      return start(rest);
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
