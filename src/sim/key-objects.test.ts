import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { privateKeyOf, publicKeyOf } from './key-objects.ts';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

describe('key objects of a PEM', () => {
  it('are parsed once and handed out again', () => {
    expect(privateKeyOf(privateKey)).toBe(privateKeyOf(privateKey));
    expect(publicKeyOf(publicKey)).toBe(publicKeyOf(publicKey));
    expect(privateKeyOf(privateKey).type).toBe('private');
  });

  it('are the public half of a private PEM when asked for the public key', () => {
    expect(publicKeyOf(privateKey).type).toBe('public');
    expect(publicKeyOf(privateKey).export({ format: 'jwk' })).toEqual(publicKeyOf(publicKey).export({ format: 'jwk' }));
  });

  it('throw for a PEM that is not a key, and keep throwing', () => {
    expect(() => privateKeyOf('nonsense')).toThrow();
    expect(() => privateKeyOf('nonsense')).toThrow();
  });
});
