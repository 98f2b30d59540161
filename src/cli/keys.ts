// `scheme-sim keys`: the two keys a user manages from the command line, a request-signing key pair
// for a client and a rotation of the key that signs notifications.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRuntime } from '../runtime.ts';
import { CliError } from './cli-errors.ts';
import { parseCommand, unknownSubcommand, usageError } from './usage.ts';

const HELP = `Usage: scheme-sim keys create --out FILE
       scheme-sim keys rotate [--data FILE]

create: writes a new RSA 2048 private key (PKCS#8 PEM, mode 0600) for signing requests as Form3's
Go SDK signs them, and prints the entry to add to the client's "public_keys" in the clients file:
a new key id (a UUID, as Form3's SDK expects) and the public key.

rotate: gives the simulator's data file a new key to sign notifications with. The previous keys
stay fetchable (GET /v1/platform/security/signing_keys/{id}, status retired), so notifications they
signed still verify. Run it while the simulator is stopped; it prints the new key id.

  --out FILE    where to write the private key (refused if it exists)
  --data FILE   the data file (default data/sim.json, as npm start uses)
  -h, --help    this help`;

/** `scheme-sim keys rotate`: a new notification signing key in the data file. Resolves with the exit code. */
export async function rotateCommand(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const { values } = parseCommand(
    argv,
    { data: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
    HELP,
  );
  if (values.help) {
    out(HELP);
    return 0;
  }
  const data = (values.data as string | undefined) ?? join(process.cwd(), 'data', 'sim.json');
  if (!existsSync(data)) throw new CliError(`no data file at ${data}; give --data FILE`);
  const runtime = await createRuntime({ data, seedAccounts: false, scheduledReports: false });
  try {
    const before = runtime.sim.notificationKeys.all().length;
    const key = runtime.sim.notificationKeys.rotate();
    await runtime.sim.store.commit();
    out(`notifications are now signed with key ${key.id}; ${before} earlier key(s) stay fetchable`);
  } finally {
    await runtime.close();
  }
  return 0;
}

/** `scheme-sim keys create`: a dev key pair for request signing. Resolves with the exit code. */
export function keysCommand(argv: string[], out: (line: string) => void = console.log): number | Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '-h' || sub === '--help') {
    out(HELP);
    return 0;
  }
  if (sub === 'rotate') return rotateCommand(rest, out);
  if (sub !== 'create') throw unknownSubcommand('keys', sub, ['create', 'rotate'], HELP);
  const { values } = parseCommand(
    rest,
    { out: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
    HELP,
  );
  if (values.help) {
    out(HELP);
    return 0;
  }
  const file = values.out as string | undefined;
  if (!file) throw usageError('keys create needs --out FILE (where the private key goes)', HELP);
  if (existsSync(file)) throw new CliError(`${file} exists; choose another --out FILE`);
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const entry = { key_id: randomUUID(), public_key: publicKey.export({ type: 'spki', format: 'pem' }) };
  out(`private key written to ${file}; add this to the client's "public_keys" in the clients file:`);
  out(JSON.stringify(entry, null, 2));
  return 0;
}
