// Tests of Form3 request signing sign as the fixtures' Northwind client: its key id and private key.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The dev signing key of fixtures/clients.json's northwind client (fixtures/keys). */
export const DEV_SIGNING_KEY_ID = '0d3f8c5e-2b7a-4f1d-9c6e-5a4b3c2d1e0f';
export function devSigningKey(): KeyObject {
  return createPrivateKey(readFileSync(new URL('../../fixtures/keys/northwind-dev-signing.pem', import.meta.url)));
}
