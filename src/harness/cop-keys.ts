// TEST-ONLY keys for Confirmation of Payee signing (src/harness/cop-test-keys.json): the
// participants' signing keys that testRuntime() passes (no RSA key generation per runtime), and
// requester key pairs registered for the Northwind and Harbour fixture clients.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signCopRequest } from '../client/cop-requester.ts';
import type { GivenSigningKey } from '../sim/cop/participant.ts';

interface RequesterKey {
  key_id: string;
  public_key: string;
  private_key: string;
}

const keys = JSON.parse(readFileSync(new URL('./cop-test-keys.json', import.meta.url), 'utf8')) as {
  participants: Record<string, GivenSigningKey>;
  requesters: Record<'northwind' | 'harbour', RequesterKey>;
};

/** Signing keys of the three fixture participants, by open_banking_id. */
export const PARTICIPANT_TEST_KEYS = keys.participants;
/** Key pairs whose public halves testRuntime() registers for the Northwind and Harbour clients. */
export const REQUESTER_TEST_KEYS = keys.requesters;

let clientsFile: string | undefined;

/** fixtures/clients.json with the requester test keys registered (a temporary file, made once per process). */
export function clientsFileWithTestKeys(): string {
  if (clientsFile) return clientsFile;
  const fixtures = JSON.parse(readFileSync(new URL('../../fixtures/clients.json', import.meta.url), 'utf8')) as Array<
    Record<string, unknown> & { client_id: string; aliases?: string[] }
  >;
  const byClient: Record<string, RequesterKey> = {
    'northwind-dev': REQUESTER_TEST_KEYS.northwind,
    'harbour-dev': REQUESTER_TEST_KEYS.harbour,
  };
  const clients = fixtures.map((c) => {
    const k = [c.client_id, ...(c.aliases ?? [])].map((name) => byClient[name]).find(Boolean);
    const kept = (c.public_keys as Array<Record<string, string>> | undefined) ?? [];
    return k ? { ...c, public_keys: [...kept, { key_id: k.key_id, public_key: k.public_key }] } : c;
  });
  const file = join(tmpdir(), `scheme-sim-test-clients-${process.pid}-${crypto.randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(clients));
  process.once('exit', () => {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  });
  clientsFile = file;
  return file;
}

/** The open_banking_id each requester test key signs as (its organisation's participant). */
export const REQUESTER_ISS = { northwind: '0015800001041REAAY', harbour: '0015800000jf9GgAAI' } as const;

/**
 * The x-jws-signature of `body` as a requester test key signs it: kid, iss (its participant's id)
 * and profile 3.1.4 unless told otherwise. `iat` is required: tests run on a manual wall clock.
 */
export function signAsRequester(
  requester: 'northwind' | 'harbour',
  body: string | Uint8Array,
  claims: { iat: number; kid?: string; iss?: string; profile?: '3.1.4' | '3.1.3' },
): Promise<string> {
  const key = REQUESTER_TEST_KEYS[requester];
  return signCopRequest(body, key.private_key, {
    kid: claims.kid ?? key.key_id,
    iss: claims.iss ?? REQUESTER_ISS[requester],
    iat: claims.iat,
    ...(claims.profile ? { profile: claims.profile } : {}),
  });
}
