// `scheme-sim start`: the simulator on a port, configured by flags or SCHEME_SIM_* variables.
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { type CorsOrigins, describeCors, parseCorsOrigins } from '../api/layers/cors.ts';
import { JWKS_PATH } from '../api/open-banking/participant-paths.ts';
import { isSupportedInstant, SUPPORTED_RANGE } from '../clock/dates.ts';
import { type ClockState, MAX_SPEED, SchemeClock } from '../clock/scheme-clock.ts';
import { FIXTURES_DIR } from '../fixtures.ts';
import { collectYoung } from '../node/collect-young.ts';
import { requestLogger } from '../node/request-log.ts';
import { listen } from '../node/server.ts';
import { warmUp } from '../node/warm-up.ts';
import { packageFile } from '../package-files.ts';
import { createRuntime, type RuntimeOptions } from '../runtime.ts';
import { secretProblem } from '../signatures/notifications/standard-webhooks.ts';
import type { RetrySchedule } from '../sim/notifications/retry-schedule.ts';
import { parseRetrySchedule } from '../sim/notifications/retry-schedule-spec.ts';
import { shortPath, writeProfile } from './profile.ts';
import { SANDBOX_START_OPTIONS, SANDBOX_START_USAGE, sandboxLimitsFrom } from './sandbox-options.ts';
import { NODE_START_OPTIONS, NODE_START_USAGE, startNode } from './start-node.ts';
import { stopOnSignals } from './stop-on-signals.ts';
import { parseCommand } from './usage.ts';

export const START_HELP = `Usage: scheme-sim start [options]

  --port N            port to listen on (default 8080; 0 picks a free one)
  --host H            address to bind (default 127.0.0.1)
  --data FILE         data file: a snapshot plus FILE.journal (default ./data/sim.json); created
                      when missing; a file of the older one-document format is migrated (docs/store.md)
  --store URL         keep the store in PostgreSQL instead: postgres://user:pass@host:5432/db
                      (one simulator per database, unless every one is a --node; docs/store-postgres.md)
  --memory            keep everything in memory (nothing survives a restart)
  --force-unlock      take over the data file's lock whatever it names (a lock naming no pid
                      is refused otherwise): only when no simulator uses the file
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
  --seed, --no-seed   load the seed accounts (fixtures/accounts.json) and payments
                      (fixtures/payments.json) into an empty store, or neither (default: --seed;
                      with --auth off only the payments, as the fake API starts with no account)
  --journal-size N    requests the request journal keeps (default 1000; 0 keeps none)
  --report-retention DAYS
                      days of scheme time a report is kept after it arrived (default 366; 0 keeps
                      all): a long advance stays cheap
  --log-requests      print one line per request: time, method, path, status, ms, error_code
  --log-level L       info (default) or debug (adds the query, client and organisation)
  --log-format F      text (default) or json (pino JSON lines)
  --cors ORIGINS      origins a browser app may call from: localhost (default: any
                      http://localhost or 127.0.0.1 port), *, off, or a comma-separated list
${SANDBOX_START_USAGE}
${NODE_START_USAGE}
  -h, --help          this help

Every option can also be set in the environment as SCHEME_SIM_<OPTION> (upper case, dashes as
underscores: SCHEME_SIM_PORT=9090, SCHEME_SIM_MEMORY=true, SCHEME_SIM_LOG=debug for --log-requests
--log-level debug); a flag on the command line wins.

A data file that already holds a clock keeps it (a restart keeps scheme time); the --clock options
then only apply after POST /v1/simulator/reset.`;

/** The parsed start options, typed as START_OPTIONS declares them. */
type StartValues = {
  [K in keyof typeof START_OPTIONS]: (typeof START_OPTIONS)[K] extends { type: 'boolean' }
    ? boolean
    : (typeof START_OPTIONS)[K] extends { default: string }
      ? string
      : string | undefined;
};

export const START_OPTIONS = {
  port: { type: 'string', default: '8080' },
  host: { type: 'string', default: '127.0.0.1' },
  data: { type: 'string' },
  store: { type: 'string' },
  memory: { type: 'boolean', default: false },
  'force-unlock': { type: 'boolean', default: false },
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
  seed: { type: 'boolean' },
  'no-seed': { type: 'boolean' },
  strict: { type: 'boolean', default: false },
  'journal-size': { type: 'string' },
  'report-retention': { type: 'string' },
  'log-requests': { type: 'boolean', default: false },
  'log-level': { type: 'string', default: 'info' },
  'log-format': { type: 'string', default: 'text' },
  cors: { type: 'string', default: 'localhost' },
  ...SANDBOX_START_OPTIONS,
  ...NODE_START_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function fail(message: string): never {
  console.error(`scheme-sim: ${message}`);
  process.exit(2);
}

const TRUE = /^(1|true|on|yes)$/i;

/**
 * --seed or --no-seed, undefined for neither (the mode's default). Set both in the environment and
 * on the command line, the command line's wins; both on the command line is a mistake.
 */
function seedChoice(values: { seed?: boolean | undefined; 'no-seed'?: boolean | undefined }, argv: string[]) {
  if (values.seed && values['no-seed']) {
    const seed = argv.includes('--seed');
    if (seed === argv.includes('--no-seed')) fail('--seed and --no-seed exclude each other');
    return seed;
  }
  return values.seed ? true : values['no-seed'] ? false : undefined;
}

/**
 * The start options set in the environment, as arguments placed before the command line's (so a
 * flag given wins): SCHEME_SIM_<OPTION>, upper case with underscores. SCHEME_SIM_LOG=info|debug
 * turns on the request log at that level.
 */
export function environmentArgs(env: Record<string, string | undefined>): string[] {
  const args: string[] = [];
  for (const [name, spec] of Object.entries(START_OPTIONS)) {
    if (name === 'help') continue;
    const value = env[`SCHEME_SIM_${name.toUpperCase().replaceAll('-', '_')}`];
    if (value === undefined || value === '') continue;
    if (spec.type === 'boolean') {
      if (TRUE.test(value)) args.push(`--${name}`);
    } else args.push(`--${name}`, value);
  }
  const log = env.SCHEME_SIM_LOG;
  if (log) args.push('--log-requests', '--log-level', log);
  return args;
}

export async function startCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values: parsed } = parseCommand([...environmentArgs(env), ...argv], START_OPTIONS, START_HELP);
  const values = parsed as StartValues;
  if (values.help) return void console.log(START_HELP);
  if ([values.memory, values.data, values.store].filter(Boolean).length > 1)
    fail('--data, --store and --memory exclude each other');
  if (values.store !== undefined && !/^postgres(ql)?:\/\//.test(values.store))
    fail(
      `--store must be a PostgreSQL URL (postgres://user:pass@host:5432/db), got ${values.store.replace(/:[^:@/]*@/, ':***@')}`,
    );
  if (values.auth !== 'on' && values.auth !== 'off') fail(`--auth must be on or off, got ${values.auth}`);
  const seedAccounts = seedChoice(values, argv);
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
  const webhookSecret = values['webhook-secret'];
  if (webhookSecret !== undefined) {
    const problem = secretProblem(webhookSecret);
    if (problem) fail(`--webhook-secret ${problem}`);
  }

  const journalSize = values['journal-size'] === undefined ? undefined : Number(values['journal-size']);
  if (journalSize !== undefined && !(Number.isInteger(journalSize) && journalSize >= 0 && journalSize <= 1_000_000))
    fail(`--journal-size must be a whole number 0–1000000, got ${values['journal-size']}`);
  const retention = values['report-retention'] === undefined ? undefined : Number(values['report-retention']);
  if (retention !== undefined && !(Number.isInteger(retention) && retention >= 0 && retention <= 36_500))
    fail(`--report-retention must be a whole number of days 0–36500, got ${values['report-retention']}`);
  const logFormat = values['log-format'];
  if (logFormat !== 'text' && logFormat !== 'json') fail(`--log-format must be text or json, got ${logFormat}`);
  const logLevel = values['log-level'];
  if (logLevel !== 'info' && logLevel !== 'debug') fail(`--log-level must be info or debug, got ${logLevel}`);
  let cors: CorsOrigins;
  try {
    cors = parseCorsOrigins(values.cors);
  } catch (err) {
    fail(`--cors ${(err as Error).message}`);
  }

  const sandboxes = sandboxLimitsFrom(values);
  if ('problem' in sandboxes) fail(sandboxes.problem);

  const data = values.memory || values.store ? undefined : (values.data ?? join(process.cwd(), 'data', 'sim.json'));
  const runtimeOptions: RuntimeOptions = {
    ...(values.store ? { postgres: values.store } : data ? { data } : { memory: true }),
    ...(values['force-unlock'] ? { forceUnlock: true } : {}),
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
    ...(seedAccounts !== undefined ? { seedAccounts } : {}),
    ...(journalSize !== undefined ? { journalSize } : {}),
    ...(retention !== undefined ? { reportRetentionDays: retention } : {}),
    cors,
    sandboxes: sandboxes.limits,
  };
  if (values.node) {
    if (!values.store) fail('--node needs --store postgres://…: the nodes of a shared double share one database');
    return startNode(
      {
        url: values.store,
        nodeId: values['node-id'],
        advertiseUrl: values['advertise-url'],
        port,
        host: values.host,
        runtimeOptions,
        log: values['log-requests'] ? { format: logFormat, level: logLevel } : undefined,
      },
      fail,
    );
  }
  const runtime = await createRuntime(runtimeOptions).catch((err: Error) => fail(err.message));
  // The first clients' requests run warm (src/node/warm-up.ts); a failure there only costs that.
  await runtime
    .warm()
    .then(() => warmUp(runtime, runtimeOptions))
    .catch((err: Error) => console.error(`scheme-sim: warm-up skipped: ${err.message}`));
  collectYoung();
  const server = await listen(runtime, port, values.host).catch(async (err: Error) => {
    // Release the data file (and its lock) before leaving.
    await runtime.close().catch(() => undefined);
    return fail(`cannot listen on ${values.host}:${port}: ${err.message}`);
  });
  // Before the banner: a signal sent the moment a script reads "listening on" must find the
  // handler, or the default action kills the process without its store flushed.
  stopOnSignals(() => server.close());

  if (values['log-requests']) {
    const log = requestLogger({ format: logFormat, level: logLevel });
    runtime.deps.journal?.onRecord(log);
    // A sandbox's requests are logged under its path prefix, so the two worlds' lines differ.
    runtime.sandboxes.onRequest((entry, id) => log({ ...entry, path: `/sandboxes/${id}${entry.path}` }));
  }
  console.log(`scheme-sim listening on ${server.url}`);
  console.log(`  dashboard: ${server.url}/dashboard`);
  console.log(`  docs:   ${server.url}/docs (API reference; ${server.url}/v1/openapi.json)`);
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
    `  cors:   ${describeCors(cors)}; requests: GET ${server.url}/v1/simulator/requests${values['log-requests'] ? `, logged (${logFormat}, ${logLevel})` : ''}`,
  );
  console.log(
    `  cop:    ${runtime.sim.participants.all().length} participants, ${runtime.sim.accounts.repo.rows.size} accounts${values['cop-strict'] ? ', strict headers and request signatures' : ''}; answers signed (JWS profile ${jwsProfile}, keys at ${JWKS_PATH.of('{open_banking_id}')})`,
  );
  console.log(
    `  sandboxes: ${runtime.sandboxes.size} live; created by ${sandboxes.limits.creation === 'open' ? 'anyone' : 'an admin client'} (POST /v1/simulator/sandboxes, scheme-sim sandbox create)`,
  );
  console.log(
    `  webhooks: ${webhookSecret ? 'signed with the server secret unless a subscription has its own' : 'signed only for subscriptions with a secret'}`,
  );
  const dev = runtime.devClient;
  // The CLI's other commands find this simulator (and, for the bundled dev client, its secret) in
  // its own profile; another simulator's is never overwritten.
  try {
    const bundled = dev && !values.clients ? { client_id: dev.client_id, client_secret: dev.client_secret } : {};
    const written = writeProfile(
      { url: server.url, ...bundled, pid: process.pid, cwd: process.cwd(), started_at: new Date().toISOString() },
      env,
    );
    console.log(
      written.refused
        ? `  profile: not written (${written.refused})`
        : `  profile: ${shortPath(written.file, env)} (read by scheme-sim clock, trigger, …)`,
    );
  } catch (err) {
    console.log(`  profile: not written (${(err as Error).message})`);
  }
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
    const keyFile = join(FIXTURES_DIR, 'keys', 'northwind-dev-signing.pem');
    if (signingKey && existsSync(keyFile))
      console.log(
        `  signing: key id ${signingKey}, private key ${pathFromHere(keyFile)} (${pathFromHere(packageFile('docs', 'api.md'))})`,
      );
  }
}

/**
 * A file of the package as the reader of the banner can open it: relative to the working directory
 * when it lies under it (`fixtures/…` in a checkout, `node_modules/scheme-sim/fixtures/…` in a
 * project that installed the package), else its absolute path.
 */
function pathFromHere(file: string, cwd = process.cwd()): string {
  const rel = relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
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
