// The simulator stands in for the Open Banking directory's keystore: the route a requester fetches a
// participant's public signing key from.
import type { AppDeps } from '../context.ts';
import type { ObAnswer } from './ob-answer.ts';
import { ObError, obErrorBody } from './ob-errors.ts';
import { JWKS_PATH } from './participant-paths.ts';

/**
 * GET /v1/participants/{open_banking_id}/jwks.json: the participant's public signing key as a JWK
 * Set, for a requester to verify the x-jws-signature of its answers with (the simulator stands in
 * for the directory's keystore, which is public: no token needed). Undefined for any other path.
 */
export function jwksAnswer(deps: AppDeps, method: string, path: string): ObAnswer | Promise<ObAnswer> | undefined {
  if (!path.endsWith(JWKS_PATH.tail)) return undefined;
  const openBankingId = JWKS_PATH.idIn(path);
  if (openBankingId === undefined) return undefined;
  if (!deps.sim.participants.find(openBankingId)) {
    return errorAnswer(
      new ObError(404, `participant ${openBankingId} does not exist`, [
        {
          ErrorCode: 'UK.OBIE.Resource.NotFound',
          Message: `no participant with open_banking_id ${openBankingId}`,
          Path: 'open_banking_id',
        },
      ]),
    );
  }
  if (method !== 'GET' && method !== 'HEAD') {
    return errorAnswer(
      new ObError(405, `method ${method} is not allowed; allowed: GET, HEAD`, [
        { ErrorCode: 'UK.OBIE.Field.Invalid', Message: 'only GET is allowed' },
      ]),
      { Allow: 'GET, HEAD' },
    );
  }
  const key = deps.sim.signingKeys.get(openBankingId);
  return key ? keySet(key.publicJwk) : deps.sim.signingKeys.key(openBankingId).then((k) => keySet(k!.publicJwk));
}

function keySet(jwk: object): ObAnswer {
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-cache' },
    body: JSON.stringify({ keys: [jwk] }),
  };
}

function errorAnswer(e: ObError, headers: Record<string, string> = {}): ObAnswer {
  return {
    status: e.status,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(obErrorBody(e.status, e.message, e.errors, e.id)),
  };
}
