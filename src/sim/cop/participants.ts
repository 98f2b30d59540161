// The banks that answer name verification (fixtures/participants.json), and which of them serves a
// payee's sort code.
import { notFound } from '../errors.ts';
import type { Participant } from './participant.ts';

/**
 * The participants of fixtures/participants.json, looked up by open_banking_id, and by sort code for
 * routing a name verification to the payee's bank (each sort code has one owner, checked here).
 */
export class Participants {
  readonly #byId = new Map<string, Participant & { served: Set<string> }>();
  readonly #bySortCode = new Map<string, Participant>();

  constructor(list: Participant[] = []) {
    for (const p of list) {
      if (this.#byId.has(p.open_banking_id)) throw new Error(`participant ${p.open_banking_id} is listed twice`);
      this.#byId.set(p.open_banking_id, { ...p, served: new Set(p.sort_codes) });
      for (const sortCode of p.sort_codes) {
        const owner = this.#bySortCode.get(sortCode);
        if (owner && owner.open_banking_id !== p.open_banking_id)
          throw new Error(
            `sort code ${sortCode} is served by two participants, ${owner.open_banking_id} and ${p.open_banking_id}: a name verification could not be routed`,
          );
        this.#bySortCode.set(sortCode, p);
      }
    }
  }

  /** The participant that serves a sort code: where a name verification for it is routed. */
  owning(sortCode: string): Participant | undefined {
    return this.#bySortCode.get(sortCode);
  }

  all(): Participant[] {
    return [...this.#byId.values()].map(({ served: _, ...p }) => p);
  }

  find(openBankingId: string): Participant | undefined {
    return this.#byId.get(openBankingId);
  }

  /** The participant an organisation answers as, if it is one. */
  ofOrganisation(organisationId: string): Participant | undefined {
    for (const p of this.#byId.values()) if (p.organisation_id === organisationId) return p;
    return undefined;
  }

  get(openBankingId: string): Participant {
    const p = this.find(openBankingId);
    if (!p) throw notFound(`participant ${openBankingId} does not exist`);
    return p;
  }

  serves(openBankingId: string, sortCode: string): boolean {
    return this.#byId.get(openBankingId)?.served.has(sortCode) ?? false;
  }
}
