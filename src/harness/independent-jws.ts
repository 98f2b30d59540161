// An independent check of a detached PS256 JWS, with Node's own crypto (OpenSSL) rather than jose,
// which the simulator signs with: RSASSA-PSS, SHA-256, MGF1 SHA-256, salt of 32 bytes (RFC 7518
// §3.5) over `protected.payload`. Also makes signatures jose refuses to make (claims listed in
// crit but absent), for the verifier's tests. The harness's check of the simulator's answers: the
// simulator itself never does PS256 by hand.
import { constants, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

const PSS = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 };

function signingInput(encodedHeader: string, body: Uint8Array, b64: boolean): Buffer {
  const payload = b64 ? Buffer.from(Buffer.from(body).toString('base64url')) : Buffer.from(body);
  return Buffer.concat([Buffer.from(`${encodedHeader}.`), payload]);
}

/** Verifies `header..signature` over `body` with a public JWK; throws saying what is wrong. */
export function verifyIndependently(
  signature: string,
  body: Uint8Array,
  jwk: Record<string, unknown>,
): Record<string, unknown> {
  const [encodedHeader, payload, encodedSignature, ...rest] = signature.split('.');
  if (!encodedHeader || payload !== '' || !encodedSignature || rest.length > 0)
    throw new Error(`not a detached JWS: ${signature}`);
  const header = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (header.alg !== 'PS256') throw new Error(`alg is ${String(header.alg)}, not PS256`);
  if (header.kid !== jwk.kid) throw new Error(`kid ${String(header.kid)} is not the JWK's ${String(jwk.kid)}`);
  const key = createPublicKey({ key: jwk as never, format: 'jwk' });
  const ok = verify(
    'sha256',
    signingInput(encodedHeader, body, header.b64 !== false),
    { key, ...PSS },
    Buffer.from(encodedSignature, 'base64url'),
  );
  if (!ok) throw new Error('the signature does not verify over the body (node:crypto, RSASSA-PSS SHA-256)');
  return header;
}

/** A detached PS256 JWS of any header, signed without jose's checks (for malformed-claim tests). */
export function handMadeJws(header: Record<string, unknown>, body: Uint8Array, privateKey: KeyObject): string {
  const encodedHeader = Buffer.from(JSON.stringify(header)).toString('base64url');
  const signature = sign('sha256', signingInput(encodedHeader, body, header.b64 !== false), {
    key: privateKey,
    ...PSS,
  });
  return `${encodedHeader}..${signature.toString('base64url')}`;
}
