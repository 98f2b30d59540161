// The detached JWS of the Open Banking Read/Write profile (§Message Signing), as Confirmation of
// Payee uses it in the x-jws-signature header: one place for the header's claims and the checks a
// verifier makes, shared by the responder (signing answers, verifying requests) and the requester
// tools of the package. The cryptography is jose's: PS256 is never done by hand here.
import { decodeProtectedHeader, errors, FlattenedSign, flattenedVerify, type KeyInput } from 'jose';

/** Which form of the profile: 3.1.4 and later sign the base64url body; 3.1.3 the raw body (b64: false). */
export type JwsProfile = '3.1.4' | '3.1.3';
export const JWS_PROFILES: readonly JwsProfile[] = ['3.1.4', '3.1.3'];

export const OB_IAT = 'http://openbanking.org.uk/iat';
export const OB_ISS = 'http://openbanking.org.uk/iss';
export const OB_TAN = 'http://openbanking.org.uk/tan';
/** The trust anchor of the Open Banking Directory, the one the simulator's keys stand for. */
export const OB_TRUST_ANCHOR = 'openbanking.org.uk';
const OB_CLAIMS = [OB_IAT, OB_ISS, OB_TAN] as const;
/** Seconds an iat may run ahead of the verifier's clock (two machines' clocks), unless told otherwise. */
export const DEFAULT_IAT_SKEW_SECONDS = 30;
/** The private claims jose must treat as understood when they are listed in crit. */
const CRIT_UNDERSTOOD = { [OB_IAT]: true, [OB_ISS]: true, [OB_TAN]: true };

export type SignatureErrorCode =
  | 'UK.OBIE.Signature.Missing'
  | 'UK.OBIE.Signature.Malformed'
  | 'UK.OBIE.Signature.Invalid'
  | 'UK.OBIE.Signature.InvalidClaim'
  | 'UK.OBIE.Signature.MissingClaim';

/** Why a detached JWS is not acceptable, as the profile's error code and (for a claim) its name. */
export class JwsProblem extends Error {
  readonly code: SignatureErrorCode;
  readonly path: string | undefined;
  constructor(code: SignatureErrorCode, message: string, path?: string) {
    super(message);
    this.code = code;
    this.path = path;
    this.name = 'JwsProblem';
  }
}

/** The claims of one signature; `iat` is seconds since the epoch. */
export interface JwsClaims {
  kid: string;
  iss: string;
  iat: number;
  tan?: string;
}

/** The protected header the profile asks for: alg, kid, typ, cty, the three claims and crit (b64 for 3.1.3). */
export function protectedHeader(profile: JwsProfile, claims: JwsClaims): Record<string, unknown> {
  const header: Record<string, unknown> = {
    alg: 'PS256',
    kid: claims.kid,
    typ: 'JOSE',
    cty: 'application/json',
    [OB_IAT]: claims.iat,
    [OB_ISS]: claims.iss,
    [OB_TAN]: claims.tan ?? OB_TRUST_ANCHOR,
    crit: [...OB_CLAIMS],
  };
  if (profile === '3.1.3') {
    header.b64 = false;
    header.crit = ['b64', ...OB_CLAIMS];
  }
  return header;
}

/** `header..signature`: the detached JWS of `body` (its exact bytes), signed PS256 by jose. */
export async function signDetached(
  body: Uint8Array,
  key: KeyInput,
  profile: JwsProfile,
  claims: JwsClaims,
): Promise<string> {
  const jws = await new FlattenedSign(body)
    .setProtectedHeader(protectedHeader(profile, claims) as { alg: string })
    .sign(key, { crit: CRIT_UNDERSTOOD });
  return `${jws.protected}..${jws.signature}`;
}

/** What a verifier expects of a signature besides the key. */
export interface JwsExpectations {
  profile: JwsProfile;
  /** The key registered under `kid`, or why there is none (the message of an InvalidClaim at kid). */
  keyFor(kid: string): KeyInput | string;
  /** Undefined when `iss` is the expected party, or why it is not. */
  issuerProblem(iss: string): string | undefined;
  /** Now, ms since the epoch: iat must not be later. */
  now: number;
  /** Seconds an iat may run ahead of `now` (the two clocks' skew). */
  skewSeconds: number;
  trustedAnchors?: readonly string[];
}

/** The protected header of a signature that verified. */
export type VerifiedJwsHeader = Record<string, unknown> & JwsClaims;

/**
 * Verifies a detached JWS over the exact bytes of `body` as the profile says: the form
 * (`header..signature`), alg PS256, the kid, iat in the past, iss the expected party, tan trusted,
 * crit exactly the three claims (and b64 for 3.1.3), typ and cty when present, then the signature
 * itself with jose. Throws a JwsProblem naming the first thing wrong.
 */
export async function verifyDetached(
  signature: string | undefined,
  body: Uint8Array,
  expect: JwsExpectations,
): Promise<VerifiedJwsHeader> {
  if (signature === undefined || signature.trim() === '')
    throw new JwsProblem('UK.OBIE.Signature.Missing', 'x-jws-signature is required', 'x-jws-signature');
  const parts = signature.trim().split('.');
  if (parts.length !== 3 || parts[1] !== '' || !parts[0] || !parts[2]) {
    throw new JwsProblem(
      'UK.OBIE.Signature.Malformed',
      'x-jws-signature must be a detached JWS: <protected header>..<signature> (the payload part left empty)',
    );
  }
  const [encodedHeader, , encodedSignature] = parts as [string, string, string];
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(`${encodedHeader}..${encodedSignature}`) as Record<string, unknown>;
  } catch {
    throw new JwsProblem(
      'UK.OBIE.Signature.Malformed',
      'the protected header of x-jws-signature is not base64url-encoded JSON',
    );
  }
  const key = checkHeader(header, expect);
  try {
    await flattenedVerify(
      { protected: encodedHeader, signature: encodedSignature, payload: payloadOf(body, expect.profile) },
      key,
      { algorithms: ['PS256'], crit: CRIT_UNDERSTOOD },
    );
  } catch (err) {
    if (err instanceof errors.JWSSignatureVerificationFailed)
      throw new JwsProblem('UK.OBIE.Signature.Invalid', 'the signature does not verify over the body with that key');
    if (err instanceof errors.JOSEError)
      throw new JwsProblem('UK.OBIE.Signature.Malformed', `x-jws-signature cannot be checked: ${err.message}`);
    throw err;
  }
  return header as VerifiedJwsHeader;
}

/** 3.1.4 verifies base64url(body); 3.1.3 (b64: false) the raw bytes. */
function payloadOf(body: Uint8Array, profile: JwsProfile): string | Uint8Array {
  return profile === '3.1.3' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64url');
}

const missingClaim = (claim: string) =>
  new JwsProblem('UK.OBIE.Signature.MissingClaim', `the protected header has no ${claim}`, claim);
const invalidClaim = (claim: string, message: string) =>
  new JwsProblem('UK.OBIE.Signature.InvalidClaim', message, claim);

/** The header's claims against the profile; answers the key to verify with. */
function checkHeader(header: Record<string, unknown>, expect: JwsExpectations): KeyInput {
  if (header.alg === undefined) throw missingClaim('alg');
  if (header.alg !== 'PS256') throw invalidClaim('alg', `alg must be PS256, not ${String(header.alg)}`);
  if (header.typ !== undefined && header.typ !== 'JOSE') throw invalidClaim('typ', 'typ, when present, must be JOSE');
  if (header.cty !== undefined && header.cty !== 'json' && header.cty !== 'application/json')
    throw invalidClaim('cty', 'cty, when present, must be json or application/json');
  checkCrit(header, expect.profile);
  if (header.kid === undefined) throw missingClaim('kid');
  if (typeof header.kid !== 'string' || header.kid === '') throw invalidClaim('kid', 'kid must be a non-empty string');
  const key = expect.keyFor(header.kid);
  if (typeof key === 'string') throw invalidClaim('kid', key);
  const iat = header[OB_IAT];
  if (iat === undefined) throw missingClaim(OB_IAT);
  if (typeof iat !== 'number' || !Number.isFinite(iat))
    throw invalidClaim(OB_IAT, `${OB_IAT} must be a JSON number of seconds since the epoch`);
  if (iat * 1000 > expect.now + expect.skewSeconds * 1000)
    throw invalidClaim(
      OB_IAT,
      `${OB_IAT} ${iat} is in the future (now ${Math.floor(expect.now / 1000)}); it must be in the past`,
    );
  const iss = header[OB_ISS];
  if (iss === undefined) throw missingClaim(OB_ISS);
  if (typeof iss !== 'string') throw invalidClaim(OB_ISS, `${OB_ISS} must be a string`);
  const issProblem = expect.issuerProblem(iss);
  if (issProblem) throw invalidClaim(OB_ISS, issProblem);
  const tan = header[OB_TAN];
  if (tan === undefined) throw missingClaim(OB_TAN);
  const trusted = expect.trustedAnchors ?? [OB_TRUST_ANCHOR];
  if (typeof tan !== 'string' || !trusted.includes(tan))
    throw invalidClaim(OB_TAN, `${OB_TAN} ${String(tan)} is not a trusted anchor (${trusted.join(', ')})`);
  return key;
}

/** b64 as the profile has it (false for 3.1.3, absent from 3.1.4), then crit: exactly the three claims, plus b64 for 3.1.3. */
function checkCrit(header: Record<string, unknown>, profile: JwsProfile): void {
  if (profile === '3.1.3') {
    if (header.b64 === undefined) throw missingClaim('b64');
    if (header.b64 !== false) throw invalidClaim('b64', 'b64 must be false (profile 3.1.3)');
  } else if (header.b64 !== undefined) {
    throw invalidClaim('b64', 'b64 is not part of profile 3.1.4 and later (it was removed after 3.1.3)');
  }
  const crit = header.crit;
  if (crit === undefined) throw missingClaim('crit');
  const expected: string[] = profile === '3.1.3' ? ['b64', ...OB_CLAIMS] : [...OB_CLAIMS];
  if (!Array.isArray(crit) || !crit.every((c) => typeof c === 'string'))
    throw invalidClaim('crit', 'crit must be an array of claim names');
  const extra = crit.filter((c) => !expected.includes(c));
  const missing = expected.filter((c) => !crit.includes(c));
  if (extra.length === 0 && missing.length === 0 && crit.length === expected.length) return;
  const said = [
    extra.length > 0 ? `extra ${extra.join(', ')}` : '',
    missing.length > 0 ? `missing ${missing.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  throw invalidClaim(
    'crit',
    `crit must list exactly ${expected.join(', ')} (profile ${profile})${said ? `: ${said}` : ''}`,
  );
}
