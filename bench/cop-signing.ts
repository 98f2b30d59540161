// What signing name-verification answers costs (bench/cop.ts reports it beside the budget): PS256
// with jose on its own, and the route served with every answer signed afresh (no signature cache)
// against the same bare Hono baseline, so the cache's share of the budget is a figure, not a claim.
import { constants, KeyObject, sign } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ResponderSigner } from '../src/api/open-banking/responder-signer.ts';
import { verifyCopResponse } from '../src/index.ts';
import type { Runtime } from '../src/runtime.ts';
import { signDetached } from '../src/signatures/jws-profile.ts';

export interface SigningRate {
  /** Wall time of one signature, one after another. */
  wallUsPerSign: number;
  /** Process CPU (every thread: WebCrypto signs on libuv's pool) per signature. */
  cpuUsPerSign: number;
  /** Signatures per second with 64 in flight at once. */
  parallelPerSecond: number;
}

export interface SigningCost extends SigningRate {
  /**
   * The physical floor on this CPU: node:crypto's RSASSA-PSS (SHA-256, salt 32, as PS256) over
   * the same bytes with the same key, nothing else (no JWS header, no base64url, no WebCrypto).
   */
  bare: SigningRate;
}

/** How fast `signOnce` signs: `n` one after another, then `n` with 64 in flight. */
async function rateOf(signOnce: () => Promise<unknown>, n: number): Promise<SigningRate> {
  for (let i = 0; i < 20; i++) await signOnce(); // warm-up
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await signOnce();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const t1 = performance.now();
  for (let done = 0; done < n; done += 64) await Promise.all(Array.from({ length: 64 }, signOnce));
  const parallel = performance.now() - t1;
  return {
    wallUsPerSign: (wall * 1000) / n,
    cpuUsPerSign: (cpu.user + cpu.system) / n,
    parallelPerSecond: (Math.ceil(n / 64) * 64 * 1000) / parallel,
  };
}

/**
 * jose PS256 signatures of `body` with the participant's key (what the simulator signs with), and
 * node:crypto's bare RSASSA-PSS signature of the same bytes with the same key: sequential, then 64
 * at a time (both sign on libuv's thread pool).
 */
export async function signingCost(
  runtime: Runtime,
  openBankingId: string,
  body: string,
  n = 400,
): Promise<SigningCost> {
  const key = (await runtime.sim.signingKeys.key(openBankingId))!;
  const bytes = Buffer.from(body);
  const claims = { kid: key.kid, iss: openBankingId, iat: Math.floor(Date.now() / 1000) };
  const keyObject = key.privateKey instanceof KeyObject ? key.privateKey : KeyObject.from(key.privateKey as CryptoKey);
  const pss = { key: keyObject, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 };
  const bareSign = () =>
    new Promise<Buffer>((resolve, reject) =>
      sign('sha256', bytes, pss, (err, signature) => (err ? reject(err) : resolve(signature))),
    );
  const jose = await rateOf(() => signDetached(bytes, key.privateKey, '3.1.4', claims), n);
  return { ...jose, bare: await rateOf(bareSign, n) };
}

/** The runtime with a signer that signs every answer afresh (RuntimeOptions.copSignatureCache 0). */
export function withoutSignatureCache(runtime: Runtime): Runtime {
  const signer = new ResponderSigner(runtime.sim.signingKeys, runtime.sim.wall, runtime.deps.signer.profile, 0);
  return { ...runtime, deps: { ...runtime.deps, signer } };
}

/** Whether an answer's x-jws-signature verifies against the participant's JWKS (what a requester checks). */
export async function answerVerifies(
  baseUrl: string,
  openBankingId: string,
  response: Response,
  body: string,
): Promise<boolean> {
  const jwks = await (await fetch(`${baseUrl}/v1/participants/${openBankingId}/jwks.json`)).json();
  return verifyCopResponse(response.headers, body, jwks, { iss: openBankingId }).then(
    () => true,
    () => false,
  );
}
