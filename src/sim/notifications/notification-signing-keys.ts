// Receivers verify that a notification came from the platform: the keys it is signed with, kept
// across restarts and rotated without breaking a receiver's cached key (decision 012).
import { generateKeyPair, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import type { Clock } from '../../clock/clock.ts';
import { isoTimestamp } from '../../clock/clock.ts';
import { noteSecretIssued } from '../../store/issued-secrets.ts';
import type { Store } from '../../store/store.ts';
import { privateKeyOf } from '../key-objects.ts';

/** The store meta key of the keys (a reset keeps it: receivers may have cached a public key). */
export const NOTIFICATION_KEYS_META = 'notification_signing_keys';

/** One key as stored: PEM halves, the current one last. */
export interface StoredSigningKey {
  id: string;
  /** SPKI PEM, what GET /v1/platform/security/signing_keys/{id} publishes. */
  public_key: string;
  /** PKCS#8 PEM; never leaves the store. */
  private_key: string;
  created_on: string;
  /** Set when a newer key took over: the key still verifies what it signed, and stays fetchable. */
  retired_on?: string;
}

/** The key that signs now, ready to use. */
export interface SigningKey {
  id: string;
  privateKey: KeyObject;
}

/**
 * The RSA keys the simulator signs notifications with, as Form3 signs its own (draft "Signing HTTP
 * Requests", RSA-SHA256, PKCS#8 keys). Generated on first use and kept in the store, so signatures
 * verify across restarts; `rotate` adds a key and keeps the old ones fetchable.
 */
export class NotificationSigningKeys {
  readonly #store: Store;
  readonly #clock: Clock;
  #current: SigningKey | undefined;
  #preparing: Promise<void> | undefined;

  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Every key, the current one last. */
  all(): StoredSigningKey[] {
    return this.#store.getMeta<StoredSigningKey[]>(NOTIFICATION_KEYS_META) ?? [];
  }

  find(id: string): StoredSigningKey | undefined {
    return this.all().find((k) => k.id === id.toLowerCase());
  }

  /**
   * Makes the first key, if there is none, off the event loop: RSA generation takes 0.1–1 s of CPU,
   * which `current()` would spend on the loop (every request waiting). The delivery worker awaits
   * this before it signs.
   */
  async prepare(): Promise<void> {
    if (this.all().length > 0) return;
    this.#preparing ??= generateRsa('rsa', { modulusLength: 2048 })
      .then(({ publicKey, privateKey }) => {
        if (this.all().length === 0) this.#keep(publicKey, privateKey);
      })
      .finally(() => {
        this.#preparing = undefined;
      });
    await this.#preparing;
  }

  /** The key that signs now (made on first use if `prepare` was not awaited: ~100 ms of CPU once). */
  current(): SigningKey {
    const stored = this.all().at(-1) ?? this.#add();
    if (this.#current?.id !== stored.id)
      this.#current = { id: stored.id, privateKey: privateKeyOf(stored.private_key) };
    return this.#current;
  }

  /** Makes a new key the current one; the previous ones stay fetchable, marked retired. */
  rotate(): StoredSigningKey {
    return this.#add();
  }

  #add(): StoredSigningKey {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return this.#keep(publicKey, privateKey);
  }

  #keep(publicKey: KeyObject, privateKey: KeyObject): StoredSigningKey {
    const now = isoTimestamp(this.#clock.now());
    const key: StoredSigningKey = {
      id: randomUUID(),
      public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      created_on: now,
    };
    const keys = this.all().map((k) => (k.retired_on ? k : { ...k, retired_on: now }));
    this.#store.setMeta(NOTIFICATION_KEYS_META, [...keys, key]);
    noteSecretIssued(this.#store, NOTIFICATION_KEYS_META);
    return key;
  }
}

const generateRsa = promisify(generateKeyPair) as unknown as (
  type: 'rsa',
  options: { modulusLength: number },
) => Promise<{ publicKey: KeyObject; privateKey: KeyObject }>;
