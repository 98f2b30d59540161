// Each participant signs its answers, and requesters verify them against its published key: the keys,
// kept in the store so a requester's copy of the JWKS stays valid across restarts.
import { type CryptoKey, calculateJwkThumbprint, exportPKCS8, generateKeyPair, importPKCS8, type JWK } from 'jose';
import { noteSecretIssued } from '../../store/issued-secrets.ts';
import type { Store } from '../../store/store.ts';
import { boundedMemo } from '../bounded-memo.ts';
import { privateKeyOf, publicKeyOf } from '../key-objects.ts';
import type { GivenSigningKey, Participant } from './participant.ts';

/** The store meta key of the generated keys (a reset keeps it: requesters may hold the JWKS). */
export const SIGNING_KEYS_META = 'cop_signing_keys';
const MIN_RSA_BITS = 2048;

/** A participant's key, ready to sign PS256 with and to publish. */
export interface ParticipantKey {
  kid: string;
  privateKey: CryptoKey;
  /** The public half as a JWK with kid, use and alg: one entry of the JWKS. */
  publicJwk: JWK;
}

/**
 * The PS256 signing key of each name-verification participant (the responder signs every answer
 * with it). A key given in the fixtures is used as given; any other participant's key is
 * generated on the first start and kept in the store, so its JWKS stays the same across restarts
 * and resets (the bundled fixtures give all three theirs). Keys load in the background (`ready`):
 * a generated RSA key costs 0.1–0.3 s of CPU, made on the thread pool while start-up goes on; the
 * server waits for `ready` before it says it is listening (Runtime.warm).
 */
export class ParticipantSigningKeys {
  readonly #store: Store;
  readonly #participants: Participant[];
  readonly #keys = new Map<string, ParticipantKey>();
  #ready: Promise<void> | undefined;

  constructor(store: Store, participants: Participant[]) {
    this.#store = store;
    this.#participants = participants;
  }

  /**
   * Checks the given keys (a bad one throws naming its participant, before anything serves), then
   * loads or generates the rest in the background. `given` (by open_banking_id) wins over a
   * participant's own `signing_key`.
   */
  load(given: Record<string, GivenSigningKey> = {}): void {
    if (this.#ready) throw new Error('participant signing keys are already loaded');
    const sources = new Map<string, GivenSigningKey | undefined>();
    for (const p of this.#participants) {
      const key = given[p.open_banking_id] ?? p.signing_key;
      if (key) checkGivenKey(p.open_banking_id, key);
      sources.set(p.open_banking_id, key);
    }
    this.#ready = this.#loadAll(sources);
    this.#ready.catch(() => undefined); // reported to whoever awaits it
  }

  /**
   * Takes another world's keys once they are loaded: the participants are the fixtures' in every
   * sandbox, so their keys (and JWKS) are the server's, read once, not generated per sandbox.
   */
  loadFrom(other: ParticipantSigningKeys): void {
    if (this.#ready) throw new Error('participant signing keys are already loaded');
    this.#ready = other.ready().then(() => {
      for (const p of this.#participants) {
        const key = other.get(p.open_banking_id);
        if (key) this.#keys.set(p.open_banking_id, key);
      }
    });
    this.#ready.catch(() => undefined); // reported to whoever awaits it
  }

  /** Resolves once every participant has its key. */
  ready(): Promise<void> {
    if (!this.#ready) throw new Error('participant signing keys were not loaded');
    return this.#ready;
  }

  /** The participant's key once loaded (undefined before, or for an unknown participant). */
  get(openBankingId: string): ParticipantKey | undefined {
    return this.#keys.get(openBankingId);
  }

  /** The participant's key, waiting for the keys to load. */
  async key(openBankingId: string): Promise<ParticipantKey | undefined> {
    const loaded = this.#keys.get(openBankingId);
    if (loaded) return loaded;
    await this.ready();
    return this.#keys.get(openBankingId);
  }

  async #loadAll(sources: Map<string, GivenSigningKey | undefined>): Promise<void> {
    const stored = { ...this.#store.getMeta<Record<string, GivenSigningKey>>(SIGNING_KEYS_META) };
    let generated = false;
    await Promise.all(
      [...sources].map(async ([id, given]) => {
        let source = given ?? stored[id];
        if (!source) {
          source = await generate();
          stored[id] = source;
          generated = true;
        }
        this.#keys.set(id, await prepare(source));
      }),
    );
    if (generated) {
      this.#store.setMeta(SIGNING_KEYS_META, stored);
      noteSecretIssued(this.#store, SIGNING_KEYS_META);
      await this.#store.commit();
    }
  }
}

function checkGivenKey(openBankingId: string, key: GivenSigningKey): void {
  const where = `participant ${openBankingId}: signing_key`;
  if (typeof key.private_key !== 'string') throw new Error(`${where}.private_key must be a PKCS#8 PEM string`);
  if (key.kid !== undefined && (typeof key.kid !== 'string' || key.kid === ''))
    throw new Error(`${where}.kid must be a non-empty string`);
  let parsed: ReturnType<typeof privateKeyOf>;
  try {
    parsed = privateKeyOf(key.private_key);
  } catch (err) {
    throw new Error(`${where}.private_key is not a readable PEM private key: ${(err as Error).message}`);
  }
  const bits = parsed.asymmetricKeyDetails?.modulusLength ?? 0;
  if (parsed.asymmetricKeyType !== 'rsa' || bits < MIN_RSA_BITS)
    throw new Error(
      `${where}.private_key must be an RSA key of at least ${MIN_RSA_BITS} bits for PS256 (got ${parsed.asymmetricKeyType}${bits ? ` ${bits}` : ''})`,
    );
  if (!key.private_key.includes('BEGIN PRIVATE KEY'))
    throw new Error(`${where}.private_key must be PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)`);
}

async function generate(): Promise<GivenSigningKey> {
  const { privateKey } = await generateKeyPair('PS256', { modulusLength: MIN_RSA_BITS, extractable: true });
  return { private_key: await exportPKCS8(privateKey) };
}

/**
 * A key ready to sign with, made once per process for a given key: runtimes that read the same
 * fixtures share it (a CryptoKey is immutable), as the conformance suite makes one per scenario.
 */
const preparedKeys = boundedMemo<Promise<ParticipantKey>>(64);

function prepare(source: GivenSigningKey): Promise<ParticipantKey> {
  const id = `${source.kid ?? ''}\n${source.private_key}`;
  return preparedKeys.get(id, () => {
    const key = prepareAnew(source);
    key.catch(() => preparedKeys.forget(id));
    return key;
  });
}

async function prepareAnew(source: GivenSigningKey): Promise<ParticipantKey> {
  const { kty, n, e } = publicKeyOf(source.private_key).export({ format: 'jwk' });
  const jwk: JWK = { kty: kty!, n: n!, e: e! };
  const kid = source.kid ?? (await calculateJwkThumbprint(jwk));
  return {
    kid,
    privateKey: await importPKCS8(source.private_key, 'PS256'),
    publicJwk: { ...jwk, kid, use: 'sig', alg: 'PS256' },
  };
}
