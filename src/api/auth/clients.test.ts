import { describe, expect, it } from 'vitest';
import { REQUESTER_TEST_KEYS } from '../../harness/cop-keys.ts';
import { ClientRegistry, type OAuthClient } from './clients.ts';

const base = { client_id: 'c1', client_secret: 's', organisation_id: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb' };
const key = REQUESTER_TEST_KEYS.northwind;

describe('client public keys (public_keys)', () => {
  it('registers each key by its key id and finds its owner', () => {
    const clients = new ClientRegistry([
      { ...base, public_keys: [{ key_id: 'k1', public_key: key.public_key }] },
      { ...base, client_id: 'c2' },
    ]);
    expect(clients.publicKey('c1', 'k1')?.asymmetricKeyType).toBe('rsa');
    expect(clients.publicKey('c1', 'k2')).toBeUndefined();
    expect(clients.keyIds('c1')).toEqual(['k1']);
    expect(clients.keyIds('c2')).toEqual([]);
    expect(clients.keyOwner('k1')?.client_id).toBe('c1');
    expect(clients.keyOwner('k2')).toBeUndefined();
  });

  it.each([
    ['not an array', { key_id: 'k1' }, /client c1: public_keys must be an array/],
    ['no key id', [{ public_key: key.public_key }], /public_keys\[0\]\.key_id must be a non-empty string/],
    [
      'a key id twice',
      [
        { key_id: 'k', public_key: key.public_key },
        { key_id: 'k', public_key: key.public_key },
      ],
      /public_keys\[1\]\.key_id k is listed twice/,
    ],
    [
      'a private key',
      [{ key_id: 'k', public_key: key.private_key }],
      /must be the PEM of a public key \(never the private one\)/,
    ],
    [
      'not a PEM',
      [{ key_id: 'k', public_key: 'nonsense' }],
      /public_keys\[0\]\.public_key is not a readable PEM public key/,
    ],
  ])('refuses %s, naming the client and the entry', (_what, public_keys, message) => {
    expect(() => new ClientRegistry([{ ...base, public_keys } as unknown as OAuthClient])).toThrow(message);
  });
});

describe('client roles', () => {
  const client = { client_id: 'c', client_secret: 's', organisation_id: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb' };

  it('makes a client a member unless the file says admin', () => {
    const registry = new ClientRegistry([client, { ...client, client_id: 'boss', role: 'admin' }]);
    expect(registry.roleOf('c')).toBe('member');
    expect(registry.roleOf('boss')).toBe('admin');
    expect(registry.roleOf('unknown')).toBe('member');
  });

  it('refuses a role it does not know, naming the client', () => {
    expect(() => new ClientRegistry([{ ...client, role: 'root' } as unknown as OAuthClient])).toThrow(
      'client c: role must be one of admin, member; got "root"',
    );
  });
});
