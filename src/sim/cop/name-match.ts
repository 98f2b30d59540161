// What the name matcher answers: its own file, read by the matcher (match.ts) and by the account's
// candidate set that keeps the answers (names.ts), so that neither imports the other.

export type MatchLevel = 'full' | 'close' | 'none';

/** Read, never changed: one result is handed to every request asking the same name of the same account. */
export interface NameMatch {
  readonly level: MatchLevel;
  /** On a close match: the account's name as held (for a joint account, only the close holder(s)). */
  readonly name?: string;
}
