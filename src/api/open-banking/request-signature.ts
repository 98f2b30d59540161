// A requester signs its name-verification request (x-jws-signature) and the responder checks it:
// the check, reported on every answer and enforced in strict mode.
import type { KeyObject } from 'node:crypto';
import { DEFAULT_IAT_SKEW_SECONDS, JwsProblem, verifyDetached } from '../../signatures/jws-profile.ts';
import type { Participant } from '../../sim/cop/participant.ts';
import type { OAuthClient } from '../auth/clients.ts';
import type { AppDeps } from '../context.ts';

/** What the simulator made of a request's x-jws-signature (reported in x-scheme-sim-jws). */
export type RequestJwsStatus = 'valid' | 'invalid' | 'absent';

export interface RequestJwsCheck {
  status: RequestJwsStatus;
  /** Why it is invalid. */
  problem?: JwsProblem;
}

/**
 * Verifies a name-verification request's x-jws-signature over the exact bytes of its body, as a
 * responder does: against the requesting client's registered public key named by `kid`
 * (OAuthClient.public_keys; with --auth off, any client's key of that id), or the key the
 * directory publishes for the participant of the client's organisation (its JWKS; with --auth off,
 * any participant's key of that id), with `iss` the requester's Open Banking id (see
 * `issuerProblem`), iat in the past and the claims of the runtime's profile. Never throws for
 * what the request sent.
 */
export async function checkRequestSignature(
  deps: AppDeps,
  clientId: string,
  signature: string | undefined,
  body: Uint8Array,
): Promise<RequestJwsCheck> {
  if (signature === undefined) return { status: 'absent' };
  let client: OAuthClient | undefined = deps.mode.credentials ? deps.clients.get(clientId) : undefined;
  /** Set when the request is signed with a participant's own key: then iss must be that participant. */
  let participant: Participant | undefined;
  try {
    await verifyDetached(signature, body, {
      profile: deps.signer.profile,
      keyFor: (kid) => {
        client ??= deps.clients.keyOwner(kid);
        const key: KeyObject | undefined = client && deps.clients.publicKey(client.client_id, kid);
        if (key) return key;
        participant = participantKeyOwner(deps, kid, client?.organisation_id);
        if (participant) return deps.sim.signingKeys.get(participant.open_banking_id)!.publicJwk;
        if (!client) return `kid ${kid} is not a key any client registered (public_keys in the clients file)`;
        const registered = deps.clients.keyIds(client.client_id);
        return registered.length === 0
          ? `client ${deps.clients.label(client.client_id)} has no registered public keys (public_keys in the clients file)`
          : `kid ${kid} is not a key of client ${deps.clients.label(client.client_id)} (registered: ${registered.join(', ')})`;
      },
      issuerProblem: (iss) =>
        participant ? issuerOf(participant.open_banking_id, iss) : issuerProblem(deps, client!, iss),
      now: deps.sim.wall.now().getTime(),
      skewSeconds: DEFAULT_IAT_SKEW_SECONDS,
    });
    return { status: 'valid' };
  } catch (err) {
    if (err instanceof JwsProblem) return { status: 'invalid', problem: err };
    throw err;
  }
}

/**
 * A requester's iss is its Open Banking organisation id: the open_banking_id of its organisation's
 * participant (an organisation that is no participant: its organisation_id), alone as an ASPSP
 * signs, or followed by `/<software statement id>` as a TPP signs in the Open Banking Directory.
 */
function issuerProblem(deps: AppDeps, client: OAuthClient, iss: string): string | undefined {
  const id = deps.sim.participants.ofOrganisation(client.organisation_id)?.open_banking_id ?? client.organisation_id;
  const problem = issuerOf(id, iss);
  return problem && `${problem} of client ${deps.clients.label(client.client_id)}`;
}

/** Undefined when `iss` is the Open Banking id `id`, alone or with a software statement id. */
function issuerOf(id: string, iss: string): string | undefined {
  if (iss === id) return undefined;
  if (iss.startsWith(`${id}/`) && iss.length > id.length + 1 && !iss.slice(id.length + 1).includes('/'))
    return undefined;
  return `iss ${iss} is not the requester's id ${id} (or ${id}/<software statement id>)`;
}

/**
 * The participant whose own signing key has this kid: the participant of the organisation when
 * one is given (a client may sign only as its own participant), any participant otherwise.
 */
function participantKeyOwner(deps: AppDeps, kid: string, organisationId: string | undefined): Participant | undefined {
  const candidates =
    organisationId === undefined
      ? deps.sim.participants.all()
      : [deps.sim.participants.ofOrganisation(organisationId)].filter((p) => p !== undefined);
  return candidates.find((p) => deps.sim.signingKeys.get(p.open_banking_id)?.kid === kid);
}
