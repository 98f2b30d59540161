// Who may call the simulator: each OAuth client's secret, organisation, role and registered public
// keys, looked up by id or alias when a token is asked for or a signature is checked.
import { createHash, type KeyObject, timingSafeEqual } from 'node:crypto';
import { publicKeyOf } from '../../sim/key-objects.ts';

export interface OAuthClient {
  /** A UUID, as Form3's client ids are (its Go SDK parses FORM3_CLIENT_ID as one). */
  client_id: string;
  /** Other names the client authenticates by (the fixtures' readable ids: `northwind-dev`). */
  aliases?: string[];
  client_secret: string;
  organisation_id: string;
  name?: string;
  /**
   * `admin` may reset every organisation and move the shared scheme clock; `member` (the default)
   * resets its own organisation and reads the clock.
   */
  role?: ClientRole;
  /**
   * The client's registered public keys (SPKI PEM), by key id: a Confirmation of Payee request's
   * x-jws-signature is verified against the one its `kid` names.
   */
  public_keys?: ClientPublicKey[];
}

export const CLIENT_ROLES = ['admin', 'member'] as const;
export type ClientRole = (typeof CLIENT_ROLES)[number];

export interface ClientPublicKey {
  key_id: string;
  /** SPKI PEM (-----BEGIN PUBLIC KEY-----), or a certificate's key in PKCS#1 PEM. */
  public_key: string;
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

/** Constant-time comparison of two secrets (hashing first makes the lengths equal). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** The OAuth clients of the simulator. Secrets stay in here and are never logged. */
export class ClientRegistry {
  readonly #byId = new Map<string, OAuthClient>();
  /** Alias → client id. */
  readonly #aliases = new Map<string, string>();
  /** Public keys by client id, then key id. */
  readonly #keys = new Map<string, Map<string, KeyObject>>();

  constructor(clients: OAuthClient[]) {
    for (const c of clients) {
      if (!c.client_id || !c.client_secret || !c.organisation_id) {
        throw new Error('every client needs client_id, client_secret and organisation_id');
      }
      if (c.role !== undefined && !CLIENT_ROLES.includes(c.role))
        throw new Error(
          `client ${c.client_id}: role must be one of ${CLIENT_ROLES.join(', ')}; got ${JSON.stringify(c.role)}`,
        );
      if (this.#byId.has(c.client_id) || this.#aliases.has(c.client_id))
        throw new Error(`client ${c.client_id} is listed twice (as an id or an alias)`);
      this.#byId.set(c.client_id, c);
      this.#keys.set(c.client_id, readKeys(c));
    }
    for (const c of clients) {
      if (c.aliases === undefined) continue;
      if (!Array.isArray(c.aliases) || c.aliases.some((a) => typeof a !== 'string' || a === ''))
        throw new Error(`client ${c.client_id}: aliases must be a list of non-empty strings`);
      for (const a of c.aliases) {
        if (this.#byId.has(a) || this.#aliases.has(a))
          throw new Error(`client ${c.client_id}: alias ${a} is already a client id or another client's alias`);
        this.#aliases.set(a, c.client_id);
      }
    }
  }

  /** The client id an id or alias names (itself when unknown). */
  #resolve(idOrAlias: string): string {
    return this.#aliases.get(idOrAlias) ?? idOrAlias;
  }

  /** How messages name a client: its first alias and its id, or its id. */
  label(clientId: string): string {
    const c = this.get(clientId);
    const alias = c?.aliases?.[0];
    return alias ? `${alias} (${c!.client_id})` : clientId;
  }

  /** The client's public key registered under `keyId`. */
  publicKey(clientId: string, keyId: string): KeyObject | undefined {
    return this.#keys.get(this.#resolve(clientId))?.get(keyId);
  }

  /** The key ids a client registered. */
  keyIds(clientId: string): string[] {
    return [...(this.#keys.get(this.#resolve(clientId))?.keys() ?? [])];
  }

  /** The first client that registered a key under `keyId` (no caller is known with --auth off). */
  keyOwner(keyId: string): OAuthClient | undefined {
    for (const [clientId, keys] of this.#keys) if (keys.has(keyId)) return this.#byId.get(clientId);
    return undefined;
  }

  /** The client if the credentials are right (by its id or an alias). An unknown id still costs one comparison. */
  authenticate(clientId: string, secret: string): OAuthClient | undefined {
    const client = this.#byId.get(this.#resolve(clientId));
    const ok = secretsEqual(client?.client_secret ?? '\u0000no-client', secret);
    return client && ok ? client : undefined;
  }

  get(clientId: string): OAuthClient | undefined {
    return this.#byId.get(this.#resolve(clientId));
  }

  /** The client's role (`member` unless the clients file says otherwise). */
  roleOf(clientId: string): ClientRole {
    return this.get(clientId)?.role ?? 'member';
  }
}

function readKeys(client: OAuthClient): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  if (client.public_keys === undefined) return keys;
  const where = `client ${client.client_id}: public_keys`;
  if (!Array.isArray(client.public_keys)) throw new Error(`${where} must be an array of {key_id, public_key}`);
  client.public_keys.forEach((k, i) => {
    if (typeof k?.key_id !== 'string' || k.key_id === '')
      throw new Error(`${where}[${i}].key_id must be a non-empty string`);
    if (keys.has(k.key_id)) throw new Error(`${where}[${i}].key_id ${k.key_id} is listed twice`);
    if (typeof k.public_key !== 'string' || k.public_key.includes('PRIVATE KEY'))
      throw new Error(`${where}[${i}].public_key must be the PEM of a public key (never the private one)`);
    try {
      keys.set(k.key_id, publicKeyOf(k.public_key));
    } catch (err) {
      throw new Error(`${where}[${i}].public_key is not a readable PEM public key: ${(err as Error).message}`);
    }
  });
  return keys;
}
