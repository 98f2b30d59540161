// Parsing an RSA key costs about a millisecond, and the same fixtures' keys are read by every runtime
// in a process: PEMs parsed once and shared.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { boundedMemo } from './bounded-memo.ts';

/**
 * Node's KeyObject of a PEM, parsed once per process: a KeyObject is immutable, and parsing an RSA
 * key costs about a millisecond, paid again by every runtime that reads the same fixtures (the
 * conformance suite makes one per scenario; issue 30). Bounded: a process reading many distinct
 * keys (a test making them) parses again rather than growing.
 */
const parsed = boundedMemo<KeyObject>(256);

/** The private key of a PEM (throws as createPrivateKey does for one it cannot read). */
export function privateKeyOf(pem: string): KeyObject {
  return parsed.get(`private\n${pem}`, () => createPrivateKey(pem));
}

/** The public key of a PEM, private or public (throws as createPublicKey does for one it cannot read). */
export function publicKeyOf(pem: string): KeyObject {
  return parsed.get(`public\n${pem}`, () => createPublicKey(pem));
}
