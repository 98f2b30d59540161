import { type AccountInput, type AccountOpening, type AccountRuleFailure, missingName } from './account-opening.ts';
import type { Account, AccountFilter, Accounts } from './accounts.ts';
import type { Rules } from './mode.ts';

/**
 * The accounts registry as a caller of the API sees it, under the rules the mode chose once:
 * Form3's (creation rules, every record scoped to the caller's organisation) or Form3's fake
 * account API's (`--auth off`: a name only; any organisation_id accepted, which partitions the
 * records; reads and changes find a record in whichever organisation holds it). The account route
 * asks this, never the mode.
 */
export interface AccountRegistry {
  /** Whether a create may name another organisation than the caller's (else 403). */
  readonly anyOrganisation: boolean;
  /** The failures of the rules for a create body's data by this caller (none: it may be created). */
  createFailures(
    callerOrganisation: string,
    data: { organisation_id?: unknown; attributes: Record<string, unknown> },
  ): AccountRuleFailure[];
  /** Creates the account (Form3: completing what Form3 generates; throws `invalid` naming a broken rule). */
  create(input: AccountInput): Account;
  /** The failures of a change to an account of this organisation. */
  changeFailures(
    organisationId: string,
    current: Record<string, unknown>,
    changes: Record<string, unknown>,
  ): AccountRuleFailure[];
  /** The organisation a read or change of this id by this caller looks in. */
  scopeOf(callerOrganisation: string, id: string): string;
  /** The caller's list (every organisation's, filtered, under the fake API's rules). */
  list(callerOrganisation: string, filter: AccountFilter): Account[];
}

/** The registry under these rules. */
export function accountRegistry(rules: Rules, accounts: Accounts, opening: AccountOpening): AccountRegistry {
  return rules === 'fake-account-api' ? new FakeApiAccounts(accounts) : new Form3Accounts(accounts, opening);
}

/** Form3's rules: account-creation rules (account-opening.ts), the caller's organisation only. */
class Form3Accounts implements AccountRegistry {
  readonly anyOrganisation = false;
  readonly #accounts: Accounts;
  readonly #opening: AccountOpening;

  constructor(accounts: Accounts, opening: AccountOpening) {
    this.#accounts = accounts;
    this.#opening = opening;
  }

  createFailures(
    callerOrganisation: string,
    data: { organisation_id?: unknown; attributes: Record<string, unknown> },
  ): AccountRuleFailure[] {
    // Another organisation's create is a 403 (after validation), whatever its attributes.
    const target = data.organisation_id;
    if (typeof target === 'string' && target.toLowerCase() !== callerOrganisation) return [];
    return this.#opening.failuresOf({ id: '', organisation_id: callerOrganisation, attributes: data.attributes });
  }

  create(input: AccountInput): Account {
    return this.#opening.open(input);
  }

  // Form3's rules hold for the account the change makes: a bank id it sets is registered; country
  // changed to GB needs a bank_id that is a sort code.
  changeFailures(
    organisationId: string,
    current: Record<string, unknown>,
    changes: Record<string, unknown>,
  ): AccountRuleFailure[] {
    return this.#opening.changeFailuresOf(organisationId, current, changes);
  }

  scopeOf(callerOrganisation: string): string {
    return callerOrganisation;
  }

  list(callerOrganisation: string, filter: AccountFilter): Account[] {
    return this.#accounts.list(callerOrganisation, filter);
  }
}

/** The fake account API's rules (form3tech-oss/interview-accountapi): a name, and no tenancy. */
class FakeApiAccounts implements AccountRegistry {
  readonly anyOrganisation = true;
  readonly #accounts: Accounts;

  constructor(accounts: Accounts) {
    this.#accounts = accounts;
  }

  createFailures(_caller: string, data: { attributes: Record<string, unknown> }): AccountRuleFailure[] {
    return missingName(data.attributes);
  }

  create(input: AccountInput): Account {
    return this.#accounts.create(input);
  }

  changeFailures(): AccountRuleFailure[] {
    return [];
  }

  scopeOf(callerOrganisation: string, id: string): string {
    return this.#accounts.organisationOf(id) ?? callerOrganisation;
  }

  list(_caller: string, filter: AccountFilter): Account[] {
    return this.#accounts.list(undefined, filter);
  }
}
