// The lookup side of Confirmation of Payee: a name verification asked through Form3's API is sent
// to the payee's bank's endpoint as any requester's request is, through the endpoint's one
// exchange, so its rules (strict mode, request signatures, validation, the matcher) apply once.

import { DEFAULT_IAT_SKEW_SECONDS, JwsProblem, signDetached, verifyDetached } from '../../signatures/jws-profile.ts';
import type { ResponderOutcome } from '../../sim/cop/answer-attributes.ts';
import type { VerificationReport, VerificationRequest } from '../../sim/cop/decide.ts';
import type { Participant } from '../../sim/cop/participant.ts';
import type { AppDeps } from '../context.ts';
import { exchangeAnswer } from './exchange-answer.ts';
import { INTERACTION } from './name-verification-exchange.ts';
import type { ObAnswer } from './ob-answer.ts';
import type { ObErrorBody } from './ob-errors.ts';
import { NAME_VERIFICATION_PATH } from './participant-paths.ts';

export interface ParticipantQuestion {
  /** The requesting client and its organisation (the caller of Form3's API). */
  clientId: string;
  organisationId: string;
  participant: Participant;
  request: VerificationRequest;
  /** Sent as x-fapi-interaction-id: the name verification's id. */
  interactionId: string;
}

/**
 * Asks the participant's endpoint, as the requester: authenticated as the requesting client,
 * `x-fapi-financial-id` the participant, the body signed with the requester's participant key when
 * it has one. The answer's x-jws-signature is verified against the participant's key before the
 * report is believed. Never throws for what the endpoint answers: an error is a failed outcome.
 */
export async function askParticipant(deps: AppDeps, q: ParticipantQuestion): Promise<ResponderOutcome> {
  const body = Buffer.from(JSON.stringify(openBankingBody(q.request)), 'utf8');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    'x-fapi-financial-id': q.participant.open_banking_id,
    [INTERACTION]: q.interactionId,
  };
  if (deps.mode.credentials)
    headers.authorization = `Bearer ${deps.tokens.issue(q.clientId, q.organisationId).access_token}`;
  const signature = await requesterSignature(deps, q.organisationId, body);
  if (signature) headers['x-jws-signature'] = signature;

  const path = NAME_VERIFICATION_PATH.of(q.participant.open_banking_id);
  const request = { method: 'POST', path, target: path, header: (name: string) => headers[name.toLowerCase()] };
  const { answer } = await exchangeAnswer(deps, request, () => body);
  const unsigned = await answerSignatureProblem(deps, q.participant, answer);
  if (unsigned)
    return { kind: 'failed', reason: `the answer of ${label(q.participant)} was not believed: ${unsigned}` };
  if (answer.status !== 200)
    return { kind: 'failed', reason: `${label(q.participant)} refused the request: ${refusal(answer)}` };
  const report = (JSON.parse(answer.body) as { Data: { VerificationReport: VerificationReport } }).Data
    .VerificationReport;
  return { kind: 'answered', report };
}

/** The Open Banking request body (OBNameVerificationRequest, the seed's fields). */
function openBankingBody(r: VerificationRequest) {
  return {
    Data: {
      SchemeName: 'SortCodeAccountNumber',
      AccountType: r.accountType,
      Identification: r.identification,
      Name: r.name,
      ...(r.secondaryIdentification !== undefined ? { SecondaryIdentification: r.secondaryIdentification } : {}),
    },
  };
}

/**
 * The request's x-jws-signature, by the requester's participant key (its iss the participant's
 * open_banking_id): the key the directory publishes for it. An organisation that is no participant
 * has none and signs nothing.
 */
async function requesterSignature(
  deps: AppDeps,
  organisationId: string,
  body: Uint8Array,
): Promise<string | undefined> {
  const requester = deps.sim.participants.ofOrganisation(organisationId);
  if (!requester) return undefined;
  const key = await deps.sim.signingKeys.key(requester.open_banking_id);
  if (!key) return undefined;
  return signDetached(body, key.privateKey, deps.signer.profile, {
    kid: key.kid,
    iss: requester.open_banking_id,
    iat: Math.floor(deps.sim.wall.now().getTime() / 1000),
  });
}

/** Why the answer's x-jws-signature does not verify against the participant's key, if it does not. */
async function answerSignatureProblem(
  deps: AppDeps,
  participant: Participant,
  answer: ObAnswer,
): Promise<string | undefined> {
  const key = await deps.sim.signingKeys.key(participant.open_banking_id);
  try {
    await verifyDetached(answer.headers['x-jws-signature'], Buffer.from(answer.body, 'utf8'), {
      profile: deps.signer.profile,
      keyFor: (kid) =>
        key && kid === key.kid ? key.publicJwk : `kid ${kid} is not the key of ${participant.open_banking_id}`,
      issuerProblem: (iss) =>
        iss === participant.open_banking_id ? undefined : `iss ${iss} is not ${participant.open_banking_id}`,
      now: deps.sim.wall.now().getTime(),
      skewSeconds: DEFAULT_IAT_SKEW_SECONDS,
    });
    return undefined;
  } catch (err) {
    if (err instanceof JwsProblem) return `${err.code}${err.path ? ` at ${err.path}` : ''}: ${err.message}`;
    throw err;
  }
}

/** `400 UK.OBIE.Field.Invalid at Data.Name: …`: the status and each Open Banking error of an answer. */
function refusal(answer: ObAnswer): string {
  let errors: ObErrorBody['Errors'] = [];
  try {
    errors = (JSON.parse(answer.body) as ObErrorBody).Errors ?? [];
  } catch {
    // not an Open Banking error body: the status says it
  }
  const items = errors.map((e) => `${e.ErrorCode}${e.Path ? ` at ${e.Path}` : ''}: ${e.Message}`);
  return [String(answer.status), ...items].join('; ');
}

function label(p: Participant): string {
  return `${p.name} (${p.open_banking_id})`;
}
