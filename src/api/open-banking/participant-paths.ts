// The participant API's paths, declared once: the prefix under which everything answers in Open
// Banking terms, and the tail of each of its two operations. The route declaration (the OpenAPI
// document), the Hono mount, the request checks, the JWKS answer, the lookup that asks a
// participant, the Node listener and the warm-up all build their paths and patterns from here.
import { rememberLast } from '../../sim/remember-last.ts';

/** Everything under this prefix answers in Open Banking terms. */
export const PARTICIPANTS_PREFIX = '/v1/participants';

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** One operation of a participant: `PARTICIPANTS_PREFIX/{open_banking_id}` then its tail. */
export class ParticipantPath {
  /** What the path ends with after the participant's id (`/jwks.json`). */
  readonly tail: string;
  /** The path under PARTICIPANTS_PREFIX as a route declaration writes it (`/:open_banking_id/jwks.json`). */
  readonly route: string;
  /**
   * The id in a path, the last path's kept (rememberLast): one participant's path comes again and
   * again, and the same id string handed back each time is hashed once by the look-ups keyed by it.
   */
  readonly #idIn: (path: string) => string | undefined;

  constructor(tail: string) {
    this.tail = tail;
    this.route = `/:open_banking_id${tail}`;
    const pattern = new RegExp(`^${escaped(PARTICIPANTS_PREFIX)}/([^/]+)${escaped(tail)}$`);
    this.#idIn = rememberLast((path) => pattern.exec(path)?.[1]);
  }

  /** The operation's path at one participant. */
  of(openBankingId: string): string {
    return `${PARTICIPANTS_PREFIX}/${openBankingId}${this.tail}`;
  }

  /** The open_banking_id a path names when it is this operation's path (one segment, not empty); else undefined. */
  idIn(path: string): string | undefined {
    return this.#idIn(path);
  }
}

/** POST: Confirmation of Payee as the participant answers it (Open Banking CoP v3.1). */
export const NAME_VERIFICATION_PATH = new ParticipantPath('/open-banking/v3.1/accounts/name-verification');
/** GET: the participant's public signing keys as a JWK Set. */
export const JWKS_PATH = new ParticipantPath('/jwks.json');
