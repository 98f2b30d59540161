#!/usr/bin/env node
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isSupportedInstant, SUPPORTED_RANGE } from '../clock/dates.ts';
import { type ClockState, MAX_SPEED, SchemeClock } from '../clock/scheme-clock.ts';
import { secretProblem } from '../delivery/signing.ts';
import { listen } from '../node/server.ts';
import { createRuntime } from '../runtime.ts';
import type { RetrySchedule } from '../sim/notifications/retry-schedule.ts';
import { parseRetrySchedule } from '../sim/notifications/retry-schedule-spec.ts';
import { clockCommand } from './clock.ts';
import { conformanceCommand } from './conformance.ts';
import { CliError } from './connection.ts';
import { doctorCommand } from './doctor.ts';
import { faultsCommand } from './faults.ts';
import { keysCommand } from './keys.ts';
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
  start: `Usage: scheme-sim start [options]

  --port N            port to listen on (default 8080; 0 picks a free one)
  --host H            address to bind (default 127.0.0.1)
  --data FILE         JSON data file (default ./data/sim.json); created when missing
  --memory            keep everything in memory (nothing survives a restart)
  --clients FILE      OAuth clients (default fixtures/clients.json)
  --auth on|off       'off' accepts calls without a token, as the default organisation
  --token-ttl SECONDS lifetime of access tokens (default 3600)
  --clock MODE        scheme clock mode: running (default: follows the wall clock) or frozen
  --clock-start ISO   scheme time to start at, e.g. 2026-12-21T09:00:00Z (default: now)
  --clock-speed N     virtual seconds per wall second of a running clock (default 1)
  --webhook-secret S  Standard Webhooks secret (whsec_<base64>) signing webhooks of subscriptions
                      without their own (or SCHEME_SIM_WEBHOOK_SECRET); never printed
  --redelivery-interval SECONDS
                      least wall time between two redeliveries of one delivery (default 10)
  --delivery-retention HOURS
                      how long finished deliveries and their attempts are kept (default 168)
  --delivery-history N
                      finished deliveries kept at most, the oldest dropped first (default 10000)
  --retry-schedule S  when failed webhook deliveries are tried again: default (0s, 5s, 30s, 2m,
                      10m, 1h, then hourly for 24h), fast (milliseconds, for tests), or waits such
                      as 0,1s,5s,30s (the last repeats; /10m gives up after 10 minutes)
  --cop-strict        name verification demands x-fapi-financial-id and a valid x-jws-signature
                      (verified against the client's public_keys; without it a signature is
                      verified and reported in x-scheme-sim-jws, never refused)
  --jws-profile P     Open Banking message-signing profile of x-jws-signature: 3.1.4 (default)
                      or 3.1.3 (b64: false, listed in crit)
  --strict            refuse body keys a resource's model does not declare (Form3 ignores them,
                      and so does the simulator without this flag)
  --no-seed           do not load fixtures/accounts.json into an empty store
  -h, --help          this help

A data file that already holds a clock keeps it (a restart keeps scheme time); the --clock options
then only apply after POST /v1/simulator/reset.`,
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
      clock: { type: 'string' },
      'clock-start': { type: 'string' },
      'clock-speed': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'redelivery-interval': { type: 'string' },
      'delivery-retention': { type: 'string' },
      'delivery-history': { type: 'string' },
      'retry-schedule': { type: 'string' },
      'cop-strict': { type: 'boolean', default: false },
      'jws-profile': { type: 'string', default: '3.1.4' },
      'no-seed': { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
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

  const redelivery = values['redelivery-interval'] === undefined ? undefined : Number(values['redelivery-interval']);
  if (redelivery !== undefined && !(Number.isFinite(redelivery) && redelivery >= 0 && redelivery <= 86_400)) {
    fail(`--redelivery-interval must be 0–86400 seconds, got ${values['redelivery-interval']}`);
  }
  const retentionHours = values['delivery-retention'] === undefined ? undefined : Number(values['delivery-retention']);
  if (
    retentionHours !== undefined &&
    !(Number.isFinite(retentionHours) && retentionHours > 0 && retentionHours <= 87_600)
  ) {
    fail(`--delivery-retention must be more than 0 and at most 87600 hours, got ${values['delivery-retention']}`);
  }
  const history = values['delivery-history'] === undefined ? undefined : Number(values['delivery-history']);
  if (history !== undefined && !(Number.isInteger(history) && history >= 0 && history <= 10_000_000)) {
    fail(`--delivery-history must be a whole number 0–10000000, got ${values['delivery-history']}`);
  }
  let retrySchedule: RetrySchedule | undefined;
  try {
    retrySchedule = values['retry-schedule'] === undefined ? undefined : parseRetrySchedule(values['retry-schedule']);
  } catch (err) {
    fail(`--retry-schedule ${(err as Error).message}`);
  }
  const jwsProfile = values['jws-profile'];
  if (jwsProfile !== '3.1.4' && jwsProfile !== '3.1.3') fail(`--jws-profile must be 3.1.4 or 3.1.3, got ${jwsProfile}`);
  const clock = clockOptions(values.clock, values['clock-start'], values['clock-speed']);
  const webhookSecret = values['webhook-secret'] ?? process.env.SCHEME_SIM_WEBHOOK_SECRET;
  if (webhookSecret !== undefined) {
    const problem = secretProblem(webhookSecret);
    if (problem) fail(`--webhook-secret ${problem}`);
  }

  const data = values.memory ? undefined : (values.data ?? join(process.cwd(), 'data', 'sim.json'));
  const runtime = await createRuntime({
    ...(data ? { data } : { memory: true }),
    ...(values.clients ? { clientsFile: values.clients } : {}),
    auth: values.auth,
    ...(ttl ? { tokenTtlSeconds: ttl } : {}),
    ...(clock ? { clock } : {}),
    ...(webhookSecret ? { webhookSecret } : {}),
    copStrict: values['cop-strict'],
    strict: values.strict,
    jwsProfile,
    ...(redelivery !== undefined ? { redeliveryIntervalMs: Math.round(redelivery * 1000) } : {}),
    ...(retrySchedule ? { retrySchedule } : {}),
    deliveryRetention: {
      ...(retentionHours !== undefined ? { maxAgeMs: Math.round(retentionHours * 3_600_000) } : {}),
      ...(history !== undefined ? { maxFinished: history } : {}),
    },
    seedAccounts: !values['no-seed'],
  }).catch((err: Error) => fail(err.message));
  const server = await listen(runtime, port, values.host).catch(async (err: Error) => {
    // Release the data file (and its lock) before leaving.
    await runtime.close().catch(() => undefined);
    return fail(`cannot listen on ${values.host}:${port}: ${err.message}`);
  });

  console.log(`scheme-sim listening on ${server.url}`);
  console.log(`  store:  ${runtime.sim.store.location}`);
  const c = runtime.sim.clock;
  console.log(
    `  clock:  ${c.mode}${c.mode === 'running' ? ` (speed ${c.speed})` : ''} at ${c.now().toISOString()}${c.restored ? ' (kept from the data file)' : ''}`,
  );
  if (clock && c.restored)
    console.log(
      '  note:   the data file already holds a scheme clock, so the --clock options were not applied (they apply after a reset)',
    );
  console.log(`  auth:   ${values.auth}`);
  console.log(
    `  cop:    ${runtime.sim.participants.all().length} participants, ${runtime.sim.accounts.repo.rows.size} accounts${values['cop-strict'] ? ', strict headers and request signatures' : ''}; answers signed (JWS profile ${jwsProfile}, keys at /v1/participants/{open_banking_id}/jwks.json)`,
  );
  console.log(
    `  webhooks: ${webhookSecret ? 'signed with the server secret unless a subscription has its own' : 'signed only for subscriptions with a secret'}`,
  );
  const dev = runtime.devClient;
  if (!dev) console.log('  clients: none in the clients file; every route but /health will answer 401');
  else if (values.clients) {
    // A clients file of the user's may hold real secrets (CI): name the client, never its secret.
    console.log(`  client: ${dev.client_id} (organisation ${dev.organisation_id}), secret from ${values.clients}`);
  } else {
    // The bundled fixtures hold development credentials only; printing one saves a look-up.
    const alias = dev.aliases?.[0] ? ` (alias ${dev.aliases[0]})` : '';
    console.log(`  dev client: ${dev.client_id}${alias} / ${dev.client_secret} (organisation ${dev.organisation_id})`);
    console.log(
      `  token:  curl -s -u ${dev.client_id}:${dev.client_secret} -d grant_type=client_credentials ${server.url}/v1/oauth2/token`,
    );
    const signingKey = dev.public_keys?.[0]?.key_id;
    if (signingKey)
      console.log(`  signing: key id ${signingKey}, private key fixtures/keys/northwind-dev-signing.pem (docs/api.md)`);
  }

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

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The start state of the scheme clock from the --clock options; undefined when none is given. */
function clockOptions(
  mode: string | undefined,
  startAt: string | undefined,
  speedFlag: string | undefined,
): ClockState | undefined {
  if (mode === undefined && startAt === undefined && speedFlag === undefined) return undefined;
  const m = mode ?? 'running';
  if (m !== 'frozen' && m !== 'running') fail(`--clock must be frozen or running, got ${m}`);
  if (startAt !== undefined && (!ISO_INSTANT.test(startAt) || Number.isNaN(Date.parse(startAt)))) {
    fail(`--clock-start must be an ISO 8601 instant with a time zone, e.g. 2026-12-21T09:00:00Z; got ${startAt}`);
  }
  const at = startAt === undefined ? new Date() : new Date(startAt);
  if (!isSupportedInstant(at))
    fail(`--clock-start must be a London date from ${SUPPORTED_RANGE}; got ${startAt ?? at.toISOString()}`);
  if (m === 'frozen') {
    if (speedFlag !== undefined) fail('--clock-speed applies to a running clock only (--clock running)');
    return SchemeClock.frozenAt(at);
  }
  const speed = speedFlag === undefined ? 1 : Number(speedFlag);
  if (!(Number.isFinite(speed) && speed > 0 && speed <= MAX_SPEED))
    fail(`--clock-speed must be a number greater than 0 and at most ${MAX_SPEED}, got ${speedFlag}`);
  return SchemeClock.runningFrom(at, speed);
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start':
      return start(rest);
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
