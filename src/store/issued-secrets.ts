// A store that lost a secret it handed out must stop start-up rather than make a new one silently
// (decision 021): the ledger of those secrets, and the check against it.
import type { StoreContent } from './store-data.ts';

/**
 * The meta key listing the secrets (meta keys) a store has handed out: the token signing key, the
 * participants' and the notifications' signing keys. A secret is added to it in the same unit
 * that stores the secret, so a store that lists a secret it does not hold has lost it, and
 * start-up refuses rather than make a new one silently (every token issued, every JWKS a client
 * cached would stop verifying). docs/store.md, "Keys and tokens".
 */
export const ISSUED_SECRETS_META = 'issued_secrets';

/** A meta key that holds a secret; the runtime passes the list (src/api/stored-records.ts). */
export interface SecretSpec {
  key: string;
  /** What a new one breaks: "every token issued with it stops verifying". */
  loss: string;
  /**
   * Made on a store's very first start, in its first commit: a store that holds anything had it,
   * even one written before the ledger existed.
   */
  madeAtFirstStart?: boolean;
}

interface MetaStore {
  getMeta<T>(key: string): T | undefined;
  setMeta(key: string, value: unknown): void;
}

/** Records that the store issued `key` (call in the unit that stores it). */
export function noteSecretIssued(store: MetaStore, key: string): void {
  const ledger = ledgerOf(store.getMeta(ISSUED_SECRETS_META)) ?? [];
  if (!ledger.includes(key)) store.setMeta(ISSUED_SECRETS_META, [...ledger, key]);
}

/**
 * Writes the ledger of a store that has none yet (one written before it existed, or a new one):
 * every secret it holds was issued. Call once the store passed its checks.
 */
export function adoptSecrets(store: MetaStore, specs: readonly SecretSpec[]): void {
  for (const spec of specs) if (store.getMeta(spec.key) !== undefined) noteSecretIssued(store, spec.key);
}

/** The secrets a store's content says it issued. */
export function issuedSecrets(content: StoreContent, specs: readonly SecretSpec[]): string[] {
  const ledger = ledgerOf(content.meta[ISSUED_SECRETS_META]);
  if (ledger) return ledger;
  // A store from before the ledger: what it holds, and what its first start made if it holds anything.
  const holdsAnything =
    Object.keys(content.meta).length > 0 ||
    Object.values(content.collections).some((rows) => (rows instanceof Map ? rows.size : Object.keys(rows).length) > 0);
  return specs
    .filter((s) => content.meta[s.key] !== undefined || (holdsAnything && s.madeAtFirstStart))
    .map((s) => s.key);
}

/** Every secret the store issued but no longer holds, and the rule it breaks (they stop start-up). */
export function lostSecrets(content: StoreContent, specs: readonly SecretSpec[]): Array<{ key: string; rule: string }> {
  const problems: Array<{ key: string; rule: string }> = [];
  for (const key of issuedSecrets(content, specs)) {
    if (content.meta[key] !== undefined) continue;
    const spec = specs.find((s) => s.key === key);
    problems.push({
      key,
      rule:
        'is missing, but this store issued it: a new one is not made silently' +
        (spec ? `, as ${spec.loss}` : '') +
        ` (\`--fix\` takes it off meta ${ISSUED_SECRETS_META}, and start-up then makes a new one)`,
    });
  }
  return problems;
}

/** Takes lost secrets off the ledger, so start-up makes new ones (`doctor --fix`, said aloud). */
export function forgetSecrets(content: StoreContent, keys: readonly string[], specs: readonly SecretSpec[]): void {
  const ledger = issuedSecrets(content, specs).filter((k) => !keys.includes(k));
  content.meta[ISSUED_SECRETS_META] = ledger;
}

function ledgerOf(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((k) => typeof k === 'string') ? value : undefined;
}
