import { createHash, timingSafeEqual } from 'node:crypto';

export interface OAuthClient {
  client_id: string;
  client_secret: string;
  organisation_id: string;
  name?: string;
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

/** Constant-time comparison of two secrets (hashing first makes the lengths equal). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** The OAuth clients of the simulator. Secrets stay in here and are never logged. */
export class ClientRegistry {
  readonly #byId = new Map<string, OAuthClient>();

  constructor(clients: OAuthClient[]) {
    for (const c of clients) {
      if (!c.client_id || !c.client_secret || !c.organisation_id) {
        throw new Error('every client needs client_id, client_secret and organisation_id');
      }
      this.#byId.set(c.client_id, c);
    }
  }

  /** The client if the credentials are right. An unknown id still costs one comparison. */
  authenticate(clientId: string, secret: string): OAuthClient | undefined {
    const client = this.#byId.get(clientId);
    const ok = secretsEqual(client?.client_secret ?? '\u0000no-client', secret);
    return client && ok ? client : undefined;
  }
}
