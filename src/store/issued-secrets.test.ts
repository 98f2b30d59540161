import { describe, expect, it } from 'vitest';
import {
  adoptSecrets,
  forgetSecrets,
  ISSUED_SECRETS_META,
  issuedSecrets,
  lostSecrets,
  noteSecretIssued,
} from './issued-secrets.ts';
import { openStore } from './store.ts';

const SPECS = [
  { key: 'token', loss: 'tokens stop verifying', madeAtFirstStart: true },
  { key: 'signing', loss: 'the JWKS changes' },
];
const content = (meta: Record<string, unknown>, rows = 0) => ({
  meta,
  collections: { things: new Map(Array.from({ length: rows }, (_, i) => [`t${i}`, { id: `t${i}` }])) },
});

describe('the ledger of issued secrets', () => {
  it('is written in the unit that stores a secret, once per key', async () => {
    const store = await openStore();
    store.setMeta('token', 'k');
    noteSecretIssued(store, 'token');
    noteSecretIssued(store, 'token');
    noteSecretIssued(store, 'signing');
    expect(store.getMeta(ISSUED_SECRETS_META)).toEqual(['token', 'signing']);
    await store.close();
  });

  it('finds a listed secret that is missing, and nothing on a store that holds its secrets', () => {
    expect(lostSecrets(content({ token: 'k', [ISSUED_SECRETS_META]: ['token'] }), SPECS)).toEqual([]);
    expect(lostSecrets(content({ [ISSUED_SECRETS_META]: ['token', 'signing'] }), SPECS)).toEqual([
      { key: 'token', rule: expect.stringMatching(/^is missing, but this store issued it: .*tokens stop verifying/) },
      { key: 'signing', rule: expect.stringContaining('the JWKS changes') },
    ]);
  });

  it('reads a store from before the ledger: its secrets, and the first-start ones if it holds anything', () => {
    expect(issuedSecrets(content({}), SPECS)).toEqual([]); // a new store
    expect(issuedSecrets(content({ signing: {} }), SPECS)).toEqual(['token', 'signing']);
    expect(issuedSecrets(content({}, 1), SPECS)).toEqual(['token']);
    expect(lostSecrets(content({ clock: {} }), SPECS).map((p) => p.key)).toEqual(['token']);
    // An empty ledger says the store issued nothing (a store written by a benchmark, say).
    expect(lostSecrets(content({ [ISSUED_SECRETS_META]: [] }, 5), SPECS)).toEqual([]);
  });

  it('is adopted from what an older store holds, and forgets what doctor --fix gives up', async () => {
    const store = await openStore();
    store.setMeta('token', 'k');
    adoptSecrets(store, SPECS);
    expect(store.getMeta(ISSUED_SECRETS_META)).toEqual(['token']);
    await store.close();
    const lost = content({ [ISSUED_SECRETS_META]: ['token', 'signing'], signing: {} });
    forgetSecrets(lost, ['token'], SPECS);
    expect(lost.meta[ISSUED_SECRETS_META]).toEqual(['signing']);
    expect(lostSecrets(lost, SPECS)).toEqual([]);
  });
});
