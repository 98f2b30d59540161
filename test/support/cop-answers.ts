// The name-verification tests ask the same participant and check its signed answers the same way:
// the request body, the participant's JWKS, and the check of an answer's signature.
import type { JSONWebKeySet } from 'jose';
import { expect } from 'vitest';
import { verifyCopResponse } from '../../src/client/cop-requester.ts';
import { verifyIndependently } from '../../src/harness/independent-jws.ts';
import type { TestRuntime } from '../../src/harness/test-runtime.ts';
import { copRequest } from './testing.ts';

/** Northwind's Open Banking id: the participant the name-verification tests ask. */
export const NW = '0015800001041REAAY';

/** A name-verification request body as text. */
export const copBody = (data: Record<string, unknown> = {}) => JSON.stringify(copRequest(data));

/** A participant's published JWKS. */
export async function jwksOf(rt: TestRuntime, id = NW): Promise<JSONWebKeySet> {
  const res = await rt.app.request(`/v1/participants/${id}/jwks.json`);
  expect(res.status).toBe(200);
  return (await res.json()) as JSONWebKeySet;
}

/** Verifies an answer's x-jws-signature against the participant's published JWKS, two ways; its bytes and header. */
export async function verifiedAnswer(rt: TestRuntime, res: Response, profile: '3.1.4' | '3.1.3' = '3.1.4') {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const jwks = await jwksOf(rt);
  const header = await verifyCopResponse(res.headers, bytes, jwks, { iss: NW, now: rt.wall.now(), profile });
  verifyIndependently(res.headers.get('x-jws-signature')!, bytes, jwks.keys[0] as Record<string, unknown>);
  return { json: JSON.parse(new TextDecoder().decode(bytes)) as Record<string, any>, header };
}

/** An `iat` a second before the runtime's wall clock. */
export const iatNow = (rt: TestRuntime) => Math.floor(rt.wall.now().getTime() / 1000) - 1;
