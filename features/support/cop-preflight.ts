// The preflight's look at a target as a Confirmation of Payee responder, before any scenario: does it
// demand signed requests, does it take the requester's signature, and do its answers verify against
// the JWKS it publishes. Each probe is a name-verification request with an empty body (`{}`), which
// a responder refuses before it reads any account: nothing is left behind on the target.
import { signCopRequest, verifyCopResponse } from '../../src/index.ts';
import {
  COP_SIGNING_SETTINGS,
  type CopRequester,
  type JwsProfile,
  jwksUrlOf,
  profileSetting,
  requesterFromSettings,
  simulatorRequester,
} from './cop-requester.ts';
import { FIXTURE_CLIENTS, FIXTURE_COP } from './fixture-clients.ts';
import { clientToken, type Settings } from './settings.ts';

export interface CopProbeTarget {
  baseUrl: string;
  /** The participant asked (staging: CONFORMANCE_COP_PARTICIPANT_ID). */
  participant: string;
  /** A bearer token of the target's client. */
  token: string;
  requester: CopRequester | undefined;
  /** The profile answers are signed in (the requester's, else CONFORMANCE_COP_JWS_PROFILE). */
  profile: JwsProfile;
  /** Where the participant's JWKS is published. */
  jwksUrl: string;
}

let strict: boolean | undefined;

/** What the preflight found: true when the target refuses unsigned requests, undefined when not asked. */
export function copStrictTarget(): boolean | undefined {
  return strict;
}

interface ProbeAnswer {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  codes: string[];
  message: string;
}

async function probe(target: CopProbeTarget, signed: boolean): Promise<ProbeAnswer> {
  const path = `/v1/participants/${target.participant}/open-banking/v3.1/accounts/name-verification`;
  const body = '{}';
  const headers: Record<string, string> = {
    authorization: `Bearer ${target.token}`,
    'content-type': 'application/json',
    'x-fapi-financial-id': target.participant,
  };
  if (signed && target.requester) {
    const r = target.requester;
    headers['x-jws-signature'] = await signCopRequest(body, r.key, {
      kid: r.kid,
      iss: r.iss,
      profile: r.profile,
      iat: Math.floor(Date.now() / 1000) - 1,
    });
  }
  const res = await fetch(`${target.baseUrl}${path}`, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  let errors: Array<{ ErrorCode?: string; Path?: string; Message?: string }> = [];
  try {
    errors = (JSON.parse(new TextDecoder().decode(bytes)) as { Errors?: typeof errors }).Errors ?? [];
  } catch {
    // not an Open Banking error body: no codes
  }
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    codes: errors.map((e) => e.ErrorCode ?? ''),
    message: errors.map((e) => `${e.ErrorCode}${e.Path ? ` at ${e.Path}` : ''}: ${e.Message}`).join('; '),
  };
}

const settingsNamed = COP_SIGNING_SETTINGS.map((s) => `${s.name} (${s.about})`).join(' and ');

/**
 * One line naming what is wrong with the target's name verification for this harness, or
 * undefined when nothing is: a strict target without the requester settings, a signature the
 * target refuses, or answers that do not verify against the participant's JWKS.
 */
export async function copSigningProblem(target: CopProbeTarget): Promise<string | undefined> {
  const unsigned = await probe(target, false);
  strict = unsigned.codes.includes('UK.OBIE.Signature.Missing');
  if (strict && !target.requester)
    return `${target.baseUrl} demands signed name verification requests (${unsigned.status} UK.OBIE.Signature.Missing); set ${settingsNamed}`;
  const answer = target.requester ? await probe(target, true) : unsigned;
  if (answer.codes.some((c) => c.startsWith('UK.OBIE.Signature.')))
    return `${target.baseUrl} refuses the requester signature made with CONFORMANCE_COP_SIGNING_KEY and CONFORMANCE_COP_SIGNING_KID (kid ${target.requester?.kid}, iss ${target.requester?.iss}): ${answer.message}`;
  const { jwksUrl } = target;
  const jwksRes = await fetch(jwksUrl, { signal: AbortSignal.timeout(10_000) });
  if (jwksRes.status !== 200)
    return `the JWKS of participant ${target.participant} at ${jwksUrl} answers ${jwksRes.status} (CONFORMANCE_COP_JWKS_URL)`;
  const jwks = (await jwksRes.json()) as Parameters<typeof verifyCopResponse>[2];
  const problem = await verifyCopResponse(answer.headers, answer.bytes, jwks, {
    iss: target.participant,
    profile: target.profile,
  }).then(
    () => undefined,
    (err: Error & { code?: string; path?: string }) =>
      `the ${answer.status} answer of participant ${target.participant} does not verify against ${jwksUrl}: ${err.code ?? err.name}${err.path ? ` at ${err.path}` : ''}: ${err.message} (profile ${target.profile}: CONFORMANCE_COP_JWS_PROFILE)`,
  );
  return problem;
}

/**
 * The preflight's CoP check of a staging target or a running simulator: one line naming the
 * problem, or undefined. Staging is asked about CONFORMANCE_COP_PARTICIPANT_ID with the configured
 * client (a client with only a request-signing key has no token for the Open Banking route: not
 * asked); a simulator about the fixtures' Northwind participant.
 */
export async function copPreflight(target: 'staging' | 'sim', settings: Settings): Promise<string | undefined> {
  let requester: CopRequester | undefined;
  try {
    requester = target === 'staging' ? requesterFromSettings(settings) : simulatorRequester(settings);
  } catch (err) {
    return (err as Error).message;
  }
  const fixture = FIXTURE_CLIENTS.default!;
  const [baseUrl, participant, clientId, secret] =
    target === 'staging'
      ? [
          settings.CONFORMANCE_BASE_URL!,
          settings.CONFORMANCE_COP_PARTICIPANT_ID!,
          settings.CONFORMANCE_CLIENT_ID!,
          settings.CONFORMANCE_CLIENT_SECRET,
        ]
      : [
          settings.SIM_BASE_URL!,
          FIXTURE_COP.participant,
          settings.SIM_CLIENT_ID ?? fixture.client_id,
          settings.SIM_CLIENT_SECRET ?? fixture.client_secret,
        ];
  if (!secret) return undefined;
  const token = await clientToken(baseUrl, clientId, secret);
  if (token.problem !== undefined) return token.problem;
  const base = baseUrl.replace(/\/$/, '');
  return copSigningProblem({
    baseUrl: base,
    participant,
    token: token.token,
    requester,
    profile: requester?.profile ?? profileSetting(settings),
    jwksUrl: (requester?.jwksUrl ?? jwksUrlOf(settings))(base, participant),
  });
}
