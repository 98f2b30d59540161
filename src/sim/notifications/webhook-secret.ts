// A subscription's Standard Webhooks secret is an attribute the domain checks when it is set;
// signing with it is delivery's job (src/delivery/signing.ts).

/** Standard Webhooks (https://www.standardwebhooks.com): `whsec_` followed by base64 of 24–64 random bytes. */
export const SECRET_PREFIX = 'whsec_';
const SECRET_RE = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** Why a secret is unusable, or undefined when it is fine. */
export function secretProblem(secret: string): string | undefined {
  if (!SECRET_RE.test(secret)) return `must be "${SECRET_PREFIX}" followed by base64 (Standard Webhooks format)`;
  const bytes = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64').length;
  if (bytes < 24 || bytes > 64) return `must encode 24 to 64 bytes, got ${bytes}`;
  return undefined;
}
