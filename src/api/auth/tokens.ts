// The access tokens POST /v1/oauth2/token hands out and every request presents back; a sandbox's
// tokens carry its prefix, by which the server routes them.
import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock/clock.ts';
import { secretsEqual } from './clients.ts';

export interface TokenClaims {
  client_id: string;
  organisation_id: string;
  /** Expiry, ms since epoch of the wall clock. */
  exp: number;
}

/**
 * Stateless bearer tokens: base64url(claims).hmac. The signing key lives in the store, so tokens
 * survive a restart. Expiry follows the wall clock, not the scheme clock: fast-forwarding 14
 * working days must not log every client out.
 */
export class TokenIssuer {
  readonly #key: Buffer;
  readonly #wall: Clock;
  readonly ttlSeconds: number;
  /** Tokens whose signature was already checked (HMAC per request is a fifth of a cheap request). */
  readonly #verified = new Map<string, TokenClaims>();

  /** What every token starts with: a sandbox's `sbx_<hex id>.`, by which the server routes it (docs/sandboxes.md). */
  readonly #prefix: string;

  constructor(key: string, wall: Clock, ttlSeconds = 3600, prefix = '') {
    this.#key = Buffer.from(key, 'base64url');
    this.#wall = wall;
    this.ttlSeconds = ttlSeconds;
    this.#prefix = prefix;
  }

  static newKey(): string {
    return randomBytes(32).toString('base64url');
  }

  issue(
    client_id: string,
    organisation_id: string,
  ): { access_token: string; token_type: 'Bearer'; expires_in: number } {
    const claims: TokenClaims = {
      client_id,
      organisation_id,
      exp: this.#wall.now().getTime() + this.ttlSeconds * 1000,
    };
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return {
      access_token: `${this.#prefix}${body}.${this.#sign(body)}`,
      token_type: 'Bearer',
      expires_in: this.ttlSeconds,
    };
  }

  /** The claims of a valid, unexpired token; otherwise why not. */
  claimsOf(token: string): { ok: true; claims: TokenClaims } | { ok: false; reason: string } {
    const known = this.#verified.get(token);
    if (known) {
      if (known.exp > this.#wall.now().getTime()) return { ok: true, claims: known };
      this.#verified.delete(token);
      return { ok: false, reason: 'access token expired' };
    }
    if (this.#prefix !== '' && !token.startsWith(this.#prefix)) return { ok: false, reason: 'invalid access token' };
    const [body, sig, extra] = (this.#prefix === '' ? token : token.slice(this.#prefix.length)).split('.');
    if (!body || !sig || extra !== undefined || !secretsEqual(sig, this.#sign(body)))
      return { ok: false, reason: 'invalid access token' };
    let claims: TokenClaims;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TokenClaims;
    } catch {
      return { ok: false, reason: 'invalid access token' };
    }
    if (typeof claims.exp !== 'number' || claims.exp <= this.#wall.now().getTime())
      return { ok: false, reason: 'access token expired' };
    if (this.#verified.size >= 10_000) this.#verified.clear(); // bounded: a burst of fresh tokens only costs re-checks
    this.#verified.set(token, claims);
    return { ok: true, claims };
  }

  #sign(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url');
  }
}
