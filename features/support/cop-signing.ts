// Message signing of Confirmation of Payee in the features: every name-verification request is
// signed as its target's requester (cop-requester.ts), every answer of a participant is checked
// against the JWKS it publishes, and a "signed as" step may ask for a signature made otherwise
// (the requester test keys of src/harness/cop-keys.ts, which the in-process target registers for
// the Northwind and Harbour clients, with changes to its claims).
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { REQUESTER_ISS, REQUESTER_TEST_KEYS } from '../../src/harness/cop-keys.ts';
import { handMadeJws, verifyIndependently } from '../../src/harness/independent-jws.ts';
import { signCopRequest, verifyCopResponse } from '../../src/index.ts';
import { answeringParticipant, defaultJwksUrl, nameVerificationParticipant } from './cop-requester.ts';
import type { LastResponse, Scenario } from './scenario.ts';

/** What a "signed as" step asked for: the requester and the changes to make to its signature. */
export interface SigningIntent {
  requester: 'northwind' | 'harbour';
  changes: Record<string, string>;
}

/** The JWS profile of the current target: its requester's, else the one a step reopened it with. */
export function profileOf(world: Scenario): '3.1.4' | '3.1.3' {
  return world.target.copRequester?.profile ?? (world.vars.jws_profile === '3.1.3' ? '3.1.3' : '3.1.4');
}

/**
 * Makes a name-verification request what a requester sends: `x-fapi-financial-id` the participant
 * asked, and a detached PS256 x-jws-signature over the exact body bytes by the target's requester
 * (signCopRequest, the package's own signer). A header the step set itself is kept; nothing is
 * added after "name verification requests are sent unsigned".
 */
export async function signNameVerification(
  world: Scenario,
  path: string,
  headers: Headers,
  body: string | Uint8Array | undefined,
): Promise<void> {
  const participant = nameVerificationParticipant(path);
  if (participant === undefined || world.state.cop_unsigned === true) return;
  if (!headers.has('x-fapi-financial-id')) headers.set('x-fapi-financial-id', participant);
  const requester = world.target.copRequester;
  if (!requester || headers.has('x-jws-signature')) return;
  const signature = await signCopRequest(body ?? new Uint8Array(), requester.key, {
    kid: requester.kid,
    iss: requester.iss,
    iat: Math.floor(world.wallNow().getTime() / 1000) - 1,
    profile: requester.profile,
  });
  headers.set('x-jws-signature', signature);
}

/**
 * Every answer under a participant's path (its JWKS excepted), success or error, on every target,
 * must carry an x-jws-signature that verifies against the JWKS the participant publishes: with
 * jose (verifyCopResponse, the package's verifier) and independently with Node's RSASSA-PSS. A
 * failure names the header or the claim at fault.
 */
export async function checkSignedAnswer(world: Scenario, path: string, res: LastResponse): Promise<void> {
  const participant = answeringParticipant(path);
  if (participant === undefined) return;
  // A participant with no published keys (an id no bank has) has nothing to sign with.
  const jwks = await fetchJwks(world, participant, { absentOk: true });
  if (!jwks) return;
  const signature = res.headers.get('x-jws-signature');
  assert.ok(signature, `the ${res.status} answer to ${path} carries no x-jws-signature header`);
  const header = await verifyCopResponse(res.headers, res.bytes, jwks, {
    iss: participant,
    now: world.wallNow(),
    profile: profileOf(world),
  }).catch((err: Error & { code?: string; path?: string }) =>
    assert.fail(
      `the ${res.status} answer to ${path}: x-jws-signature does not verify: ${err.code ?? err.name}${err.path ? ` at ${err.path}` : ''}: ${err.message}`,
    ),
  );
  const jwk = jwks.keys.find((k) => k.kid === header.kid) as Record<string, unknown>;
  verifyIndependently(signature, res.bytes, jwk);
  world.state.signed_answers = Number(world.state.signed_answers ?? 0) + 1;
}

type Jwks = { keys: Array<{ kid?: string }> };

/**
 * The participant's JWKS where the target publishes it (CONFORMANCE_COP_JWKS_URL), once per
 * scenario; with `absentOk`, undefined when the target answers 404 (no such participant).
 */
export async function fetchJwks(world: Scenario, openBankingId: string): Promise<Jwks>;
export async function fetchJwks(
  world: Scenario,
  openBankingId: string,
  o: { absentOk: true },
): Promise<Jwks | undefined>;
export async function fetchJwks(
  world: Scenario,
  openBankingId: string,
  o: { absentOk?: boolean } = {},
): Promise<Jwks | undefined> {
  const cache = (world.state.jwks ??= {}) as Record<string, Jwks | null>;
  const cached = cache[openBankingId];
  if (cached !== undefined)
    return cached ?? (o.absentOk ? undefined : assert.fail(`participant ${openBankingId} publishes no JWKS`));
  const url = (world.target.copRequester?.jwksUrl ?? defaultJwksUrl)(world.target.baseUrl, openBankingId);
  const res = await world.target.fetch(new Request(url));
  if (res.status === 404 && o.absentOk) {
    cache[openBankingId] = null;
    return undefined;
  }
  assert.equal(res.status, 200, `the JWKS of ${openBankingId} at ${url}: ${res.status}`);
  const jwks = (await res.json()) as Jwks;
  cache[openBankingId] = jwks;
  return jwks;
}

/**
 * The x-jws-signature a "signed as" step asked for, over `body`. Changes: kid, iss, profile, iat
 * (`+N`: N seconds ahead of the target's wall clock), body (sign this text instead), crit (one
 * more entry, signed by hand: jose refuses to make such a header).
 */
export async function requestSignature(world: Scenario, body: string): Promise<string | undefined> {
  const intent = world.state.cop_signing as SigningIntent | undefined;
  if (!intent) return undefined;
  const key = REQUESTER_TEST_KEYS[intent.requester];
  const c = intent.changes;
  const now = Math.floor(world.wallNow().getTime() / 1000);
  const signed = c.body ?? body;
  const signature = await signCopRequest(signed, key.private_key, {
    kid: c.kid ?? key.key_id,
    iss: c.iss ?? REQUESTER_ISS[intent.requester],
    iat: c.iat?.startsWith('+') ? now + Number(c.iat.slice(1)) : now - 1,
    profile: c.profile === '3.1.3' ? '3.1.3' : '3.1.4',
  });
  if (c.crit === undefined) return signature;
  const header = JSON.parse(Buffer.from(signature.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
  header[c.crit] = true;
  header.crit = [...(header.crit as string[]), c.crit];
  return handMadeJws(header, Buffer.from(signed), createPrivateKey(key.private_key));
}
