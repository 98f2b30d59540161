// Form3's security users as the simulator has them: each client of the world (the clients file, or
// a sandbox's clients) is one user of its organisation, with that client as its one credential and
// the client's registered keys as its public keys. Read only: users come from the clients file,
// not from requests (docs/decisions/030-clients-are-security-users.md).
import { createHash } from 'node:crypto';
import { notFound } from '../errors.ts';

/** Where users are addressed: go-form3's users client (`/security/users` under its `/v1` base). */
export const USERS_PATH = '/v1/security/users';
export const USER_TYPE = 'users';

/** What a user is made from: a client of the world (src/api/auth/clients.ts `OAuthClient` has these fields). */
export interface UserSource {
  client_id: string;
  organisation_id: string;
  /** The first alias is the user's username. */
  aliases?: readonly string[];
  public_keys?: ReadonlyArray<{ key_id: string }>;
}

/**
 * go-form3 models/user.go `UserAttributes`; the three lists are sent even when empty, as its model
 * has them. `public_key_ids` holds the client's key ids that are UUIDs, as Form3's model types them
 * (a request signature's keyId); a key registered under another id (a JWS `kid`) is left out.
 */
export interface UserAttributes {
  username: string;
  role_ids: string[];
  client_credential_ids: string[];
  public_key_ids: string[];
}

/** go-form3 models/user.go `User`: no timestamps in Form3's model. */
export interface User {
  type: typeof USER_TYPE;
  id: string;
  organisation_id: string;
  version: number;
  attributes: UserAttributes;
}

/** go-form3 models/credential.go: a credential as a listing shows it, without its secret. */
export interface UserCredential {
  client_id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// A fixed namespace for the users' name-based ids (RFC 9562 §5.5), chosen for scheme-sim.
const USER_ID_NAMESPACE = Buffer.from('6a69a19d7ce3464e89d3846a994c8ca4', 'hex');

/**
 * The id of the user a client is: a name-based UUID (version 5) of the client id, so the same
 * client is the same user after a restart, and a sandbox's new clients are new users.
 */
export function userIdOf(clientId: string): string {
  const h = createHash('sha1').update(USER_ID_NAMESPACE).update(clientId, 'utf8').digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function userPath(id: string): string {
  return `${USERS_PATH}/${id}`;
}

/** The users of one world, by organisation, in the order of the clients file. */
export class Users {
  readonly #all: readonly User[];
  readonly #byId: ReadonlyMap<string, User>;

  constructor(sources: readonly UserSource[] = []) {
    this.#all = sources.map(
      (s): User => ({
        type: USER_TYPE,
        id: userIdOf(s.client_id),
        organisation_id: s.organisation_id,
        version: 0,
        attributes: {
          username: s.aliases?.[0] ?? s.client_id,
          role_ids: [],
          client_credential_ids: [s.client_id],
          public_key_ids: (s.public_keys ?? []).map((k) => k.key_id).filter((id) => UUID.test(id)),
        },
      }),
    );
    this.#byId = new Map(this.#all.map((u) => [u.id, u]));
  }

  /** The organisation's users. */
  list(organisationId: string): User[] {
    return this.#all.filter((u) => u.organisation_id === organisationId);
  }

  /** The user, if it is one of the organisation's; else 404 as for an unknown id. */
  get(id: string, organisationId: string): User {
    const user = this.#byId.get(id);
    if (!user || user.organisation_id !== organisationId) throw notFound(`record ${id} does not exist`);
    return user;
  }

  /** The user's credentials: its client, never the secret. */
  credentials(id: string, organisationId: string): UserCredential[] {
    return this.get(id, organisationId).attributes.client_credential_ids.map((client_id) => ({ client_id }));
  }
}
