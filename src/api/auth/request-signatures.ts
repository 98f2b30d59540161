// The app's side of Form3's request signing: which client registered a signature's key id, and the
// one replay cache every route shares, so the verifier in http-signature.ts knows no registry.
import type { AppDeps } from '../context.ts';
import type { Caller } from './caller.ts';
import { ReplayCache, type SignedRequest, verifySignedRequest } from './http-signature.ts';

/** Whether an Authorization header uses the Signature scheme (Form3's request signing). */
export function isSignatureAuthorization(header: string | undefined): header is string {
  return header !== undefined && /^signature\s/i.test(header);
}

/**
 * Verifies requests signed as Form3's Go SDK signs them against the clients' registered keys. One
 * per app (every route shares its replay cache, name verification included).
 */
export class RequestSignatures {
  readonly #deps: AppDeps;
  readonly #replays = new ReplayCache();
  readonly #keys;

  constructor(deps: AppDeps) {
    this.#deps = deps;
    this.#keys = {
      keyOf(keyId: string) {
        const client = deps.clients.keyOwner(keyId);
        const key = client && deps.clients.publicKey(client.client_id, keyId);
        return client && key
          ? { caller: { organisationId: client.organisation_id, clientId: client.client_id }, key }
          : undefined;
      },
    };
  }

  /** The caller of a signed request, or a 401 naming what is wrong. */
  callerOf(authorization: string, req: SignedRequest): Caller {
    return verifySignedRequest(authorization, req, this.#keys, this.#deps.sim.wall.now(), this.#replays);
  }
}

const perApp = new WeakMap<AppDeps, RequestSignatures>();

/** The app's verifier of signed requests. */
export function requestSignatures(deps: AppDeps): RequestSignatures {
  let verifier = perApp.get(deps);
  if (!verifier) {
    verifier = new RequestSignatures(deps);
    perApp.set(deps, verifier);
  }
  return verifier;
}
