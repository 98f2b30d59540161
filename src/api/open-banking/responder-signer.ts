// A requester verifies every name-verification answer's signature, so the simulator signs each one
// as the answering participant would, at a cost the name-verification budget allows.
import type { Clock } from '../../clock/clock.ts';
import type { JwsProfile } from '../../signatures/jws-profile.ts';
import { signDetached } from '../../signatures/jws-profile.ts';
import type { ParticipantKey, ParticipantSigningKeys } from '../../sim/cop/participant-signing-keys.ts';
import type { ObAnswer } from './ob-answer.ts';

export const JWS_HEADER = 'x-jws-signature';
/** Distinct successful answers kept signed, per participant (default of RuntimeOptions.copSignatureCache). */
export const DEFAULT_SIGNATURE_CACHE = 4096;
/** A cached signature is reused while its iat is younger than this (wall time). */
const SIGNATURE_MAX_AGE_MS = 5 * 60_000;

interface Signed {
  signature: string;
  signedAt: number;
}

/**
 * Signs every name-verification answer as its participant: a detached PS256 JWS of the body's exact
 * bytes in x-jws-signature, iss the participant's open_banking_id, iat the wall clock.
 *
 * A PS256 signature costs ~0.5 ms of CPU, several times the rest of an answer, while successful
 * answers repeat (the same report for the same path). So a 200 answer's signature is kept per
 * distinct body, at most `cacheEntries` per participant (oldest dropped first) and for five
 * minutes: a signature of the same bytes by the same key verifies as well the second time (PSS is
 * randomised, so a fresh one would only differ in its random salt and its iat). A hit answers
 * synchronously. Error answers carry a fresh Id each time and are signed each time, uncached.
 */
export class ResponderSigner {
  readonly profile: JwsProfile;
  readonly #keys: ParticipantSigningKeys;
  readonly #wall: Clock;
  readonly #limit: number;
  readonly #cache = new Map<string, Map<string, Signed>>();
  readonly #pending = new Map<string, Promise<string>>();

  constructor(keys: ParticipantSigningKeys, wall: Clock, profile: JwsProfile, cacheEntries = DEFAULT_SIGNATURE_CACHE) {
    if (!Number.isInteger(cacheEntries) || cacheEntries < 0)
      throw new Error(`the signature cache size must be a whole number ≥ 0, got ${cacheEntries}`);
    this.#keys = keys;
    this.#wall = wall;
    this.profile = profile;
    this.#limit = cacheEntries;
  }

  /**
   * The answer with its x-jws-signature (the same object): at once when this body's signature is
   * cached, else once signed. Unchanged when no participant is known (an unknown participant has
   * no key, and no JWKS to verify with).
   */
  sign(answer: ObAnswer, openBankingId: string | undefined): ObAnswer | Promise<ObAnswer> {
    if (openBankingId === undefined) return answer;
    const cacheable = answer.status === 200 && this.#limit > 0;
    if (cacheable) {
      const hit = this.#cache.get(openBankingId)?.get(answer.body);
      if (hit !== undefined && this.#wall.now().getTime() - hit.signedAt < SIGNATURE_MAX_AGE_MS) {
        answer.headers[JWS_HEADER] = hit.signature;
        return answer;
      }
    }
    return this.#signed(answer, openBankingId, cacheable);
  }

  async #signed(answer: ObAnswer, openBankingId: string, cacheable: boolean): Promise<ObAnswer> {
    const key = this.#keys.get(openBankingId) ?? (await this.#keys.key(openBankingId));
    if (!key) return answer;
    if (!cacheable) {
      answer.headers[JWS_HEADER] = await this.#sign(key, openBankingId, answer.body, this.#wall.now().getTime());
      return answer;
    }
    // Concurrent misses of one body share one signing.
    const pendingKey = `${openBankingId}\n${answer.body}`;
    let signing = this.#pending.get(pendingKey);
    if (!signing) {
      const signedAt = this.#wall.now().getTime();
      signing = this.#sign(key, openBankingId, answer.body, signedAt).finally(() => this.#pending.delete(pendingKey));
      this.#pending.set(pendingKey, signing);
      this.#remember(openBankingId, answer.body, { signature: await signing, signedAt });
    }
    answer.headers[JWS_HEADER] = await signing;
    return answer;
  }

  #sign(key: ParticipantKey, openBankingId: string, body: string, at: number): Promise<string> {
    return signDetached(Buffer.from(body, 'utf8'), key.privateKey, this.profile, {
      kid: key.kid,
      iss: openBankingId,
      iat: Math.floor(at / 1000),
    });
  }

  #remember(openBankingId: string, body: string, signed: Signed): void {
    let bodies = this.#cache.get(openBankingId);
    if (!bodies) this.#cache.set(openBankingId, (bodies = new Map()));
    bodies.delete(body); // an expired entry moves to the young end
    if (bodies.size >= this.#limit) bodies.delete(bodies.keys().next().value!);
    bodies.set(body, signed);
  }
}
