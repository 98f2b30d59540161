import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CliError } from './clock.ts';

const HELP = `Usage: scheme-sim keys create --out FILE

Writes a new RSA 2048 private key (PKCS#8 PEM, mode 0600) for signing requests as Form3's Go SDK
signs them, and prints the entry to add to the client's "public_keys" in the clients file: a new
key id (a UUID, as Form3's SDK expects) and the public key.

  --out FILE    where to write the private key (refused if it exists)
  -h, --help    this help`;

/** `scheme-sim keys create`: a dev key pair for request signing. Resolves with the exit code. */
export function keysCommand(argv: string[], out: (line: string) => void = console.log): number {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '-h' || sub === '--help') {
    out(HELP);
    return 0;
  }
  if (sub !== 'create') throw new CliError(`unknown keys command ${sub}\n${HELP}`);
  const { values } = parseArgs({
    args: rest,
    options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
    strict: true,
  });
  if (values.help) {
    out(HELP);
    return 0;
  }
  if (!values.out) throw new CliError(`keys create needs --out FILE\n${HELP}`);
  if (existsSync(values.out)) throw new CliError(`${values.out} exists; choose another --out FILE`);
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(values.out, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const entry = { key_id: randomUUID(), public_key: publicKey.export({ type: 'spki', format: 'pem' }) };
  out(`private key written to ${values.out}; add this to the client's "public_keys" in the clients file:`);
  out(JSON.stringify(entry, null, 2));
  return 0;
}
