// The requester's side of Confirmation of Payee message signing, exported by the package: sign a
// request's body for x-jws-signature, and verify a responder's answer against its JWKS (the
// simulator's is at GET /v1/participants/{open_banking_id}/jwks.json). Same profile rules as the
// simulator's own checks (jws-profile.ts), same library (jose).
import { importPKCS8, type JSONWebKeySet, type JWK, type KeyInput } from 'jose';
import {
  DEFAULT_IAT_SKEW_SECONDS,
  JwsProblem,
  type JwsProfile,
  signDetached,
  type VerifiedJwsHeader,
  verifyDetached,
} from '../signatures/jws-profile.ts';

export interface CopRequestClaims {
  /** The id of the signing key, as registered with the responder (the simulator: a client's public_keys key_id). */
  kid: string;
  /** The requester's Open Banking id (`<org id>` or `<org id>/<software statement id>`). */
  iss: string;
  /** Seconds since the epoch; default now. */
  iat?: number;
  /** The trust anchor; default openbanking.org.uk. */
  tan?: string;
  /** 3.1.4 (default) or 3.1.3 (b64: false). */
  profile?: JwsProfile;
}

/**
 * The x-jws-signature of a request body: a detached PS256 JWS (`header..signature`) over the exact
 * bytes that will be sent. `key` is a PKCS#8 PEM string or anything jose takes (KeyObject,
 * CryptoKey, private JWK).
 */
export async function signCopRequest(
  body: string | Uint8Array,
  key: string | KeyInput,
  claims: CopRequestClaims,
): Promise<string> {
  const signingKey = typeof key === 'string' ? await importPKCS8(key, 'PS256') : key;
  return signDetached(bytesOf(body), signingKey, claims.profile ?? '3.1.4', {
    kid: claims.kid,
    iss: claims.iss,
    iat: claims.iat ?? Math.floor(Date.now() / 1000),
    ...(claims.tan !== undefined ? { tan: claims.tan } : {}),
  });
}

export interface VerifyCopResponseOptions {
  /** The responder's form of the profile: 3.1.4 (default) or 3.1.3. */
  profile?: JwsProfile;
  /** The responder's open_banking_id: iss must be it. Without it any iss is taken. */
  iss?: string;
  /** The verifier's now (default the system clock); iat must not be later. */
  now?: Date;
  /** Seconds of clock skew allowed for iat (default 30). */
  skewSeconds?: number;
  /** Trust anchors accepted in tan (default openbanking.org.uk). */
  trustedAnchors?: string[];
}

/**
 * Verifies a responder's answer: its x-jws-signature over the exact bytes of `body`, with the key of
 * `jwks` its kid names, and the profile's claims (iat in the past, iss, tan, crit). Resolves with
 * the protected header; rejects with a JwsProblem whose `code` is the profile's
 * UK.OBIE.Signature.* code and `path` the claim at fault.
 */
export function verifyCopResponse(
  headers: Headers | Record<string, string | string[] | undefined>,
  body: string | Uint8Array,
  jwks: JSONWebKeySet,
  options: VerifyCopResponseOptions = {},
): Promise<VerifiedJwsHeader> {
  return verifyDetached(headerOf(headers, 'x-jws-signature'), bytesOf(body), {
    profile: options.profile ?? '3.1.4',
    keyFor: (kid) => {
      const jwk = jwks.keys.find((k: JWK) => k.kid === kid);
      return jwk ?? `kid ${kid} is not in the JWKS (kids: ${jwks.keys.map((k) => k.kid).join(', ') || 'none'})`;
    },
    issuerProblem: (iss) =>
      options.iss === undefined || iss === options.iss ? undefined : `iss ${iss} is not the responder ${options.iss}`,
    now: (options.now ?? new Date()).getTime(),
    skewSeconds: options.skewSeconds ?? DEFAULT_IAT_SKEW_SECONDS,
    ...(options.trustedAnchors ? { trustedAnchors: options.trustedAnchors } : {}),
  });
}

export { JwsProblem };

function bytesOf(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

function headerOf(headers: Headers | Record<string, string | string[] | undefined>, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v.join(', ') : v;
  }
  return undefined;
}
