// Message signing of Confirmation of Payee in the features: the check that every answer of a
// participant is signed and verifies against its published JWKS, and the signature a requester
// step asked for. Requests are signed with the requester test keys of src/harness/cop-keys.ts,
// which the in-process target registers for the Northwind and Harbour clients.
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { REQUESTER_ISS, REQUESTER_TEST_KEYS } from '../../src/harness/cop-keys.ts';
import { handMadeJws, verifyIndependently } from '../../src/harness/independent-jws.ts';
import { signCopRequest, verifyCopResponse } from '../../src/index.ts';
import type { SimWorld } from './world.ts';

/** What a "signed as" step asked for: the requester and the changes to make to its signature. */
export interface SigningIntent {
  requester: 'northwind' | 'harbour';
  changes: Record<string, string>;
}

/** The JWS profile answers of the current target are signed in (set when a step reopens it). */
export function profileOf(world: SimWorld): '3.1.4' | '3.1.3' {
  return world.vars.jws_profile === '3.1.3' ? '3.1.3' : '3.1.4';
}

/** Registers the check: every answer under the participant carries an x-jws-signature that verifies. */
export function checkSignedAnswers(world: SimWorld, openBankingId: string): void {
  const prefix = `/v1/participants/${openBankingId}/`;
  world.responseChecks.push(async (path, res) => {
    if (!path.startsWith(prefix) || path.startsWith(`${prefix}jwks.json`)) return;
    const signature = res.headers.get('x-jws-signature');
    assert.ok(signature, `the ${res.status} answer to ${path} carries no x-jws-signature`);
    const jwks = await fetchJwks(world, openBankingId);
    const header = await verifyCopResponse(res.headers, res.bytes, jwks, {
      iss: openBankingId,
      now: world.wallNow(),
      profile: profileOf(world),
    }).catch((err: Error) => assert.fail(`the ${res.status} answer to ${path}: ${err.message}`));
    // And independently of jose, with Node's own RSASSA-PSS.
    const jwk = jwks.keys.find((k) => k.kid === header.kid) as Record<string, unknown>;
    verifyIndependently(signature, res.bytes, jwk);
    world.state.signed_answers = Number(world.state.signed_answers ?? 0) + 1;
  });
}

export async function fetchJwks(world: SimWorld, openBankingId: string): Promise<{ keys: Array<{ kid?: string }> }> {
  const res = await world.target.fetch(
    new Request(`${world.target.baseUrl}/v1/participants/${openBankingId}/jwks.json`),
  );
  assert.equal(res.status, 200, `the JWKS of ${openBankingId}: ${res.status}`);
  return (await res.json()) as { keys: Array<{ kid?: string }> };
}

/**
 * The x-jws-signature a "signed as" step asked for, over `body`. Changes: kid, iss, profile, iat
 * (`+N`: N seconds ahead of the target's wall clock), body (sign this text instead), crit (one
 * more entry, signed by hand: jose refuses to make such a header).
 */
export async function requestSignature(world: SimWorld, body: string): Promise<string | undefined> {
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
