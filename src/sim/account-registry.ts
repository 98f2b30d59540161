// The accounts follow Form3's rules or the fake account API's, by the mode: the one place that
// chooses between them, so the account routes never test the mode (decision 016).
import { type AccountInput, type AccountOpening, type AccountRuleFailure, missingName } from './account-opening.ts';
import type { Account, AccountFilter, Accounts, AccountsOptions } from './accounts.ts';
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
  /**
   * Whether a create must send `data.type` (the fake API's model requires it: `type in body is
   * required`); Form3's fills in an omitted one, as its SDK omits it.
   */
  readonly typeRequired: boolean;
  /**
   * Attributes whose value is one of this model's enum, in place of the account schema's rule
   * (Form3's); none under Form3's rules.
   */
  readonly attributeEnums?: Readonly<Record<string, readonly string[]>>;
  /**
   * A model of its own in place of Form3's where a create body's empty strings are read: the
   * attributes it declares, and the paths under `data` where its Go model holds a `string`, so that
   * `""` means not given (FAKE_ACCOUNT_API_MODEL); undefined: Form3's model throughout.
   */
  readonly ownModel?: { readonly attributes: readonly string[]; readonly emptyMeansAbsent: readonly string[] };
  /**
   * Whether a create may send any integer `version` (the fake API's model: an int64 with no rule;
   * the account starts at 0 whatever it said); under Form3's rules it must be 0.
   */
  readonly anyVersionOnCreate: boolean;
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

/**
 * The attributes of the fake account API's account model (interview-accountapi `models.go`,
 * `AccountAttributes`): exactly these fifteen. Its server decodes a body into that model and
 * answers it back, so its answers carry nothing else.
 */
export const FAKE_ACCOUNT_API_ATTRIBUTES = [
  'account_classification',
  'account_matching_opt_out',
  'account_number',
  'alternative_names',
  'bank_id',
  'bank_id_code',
  'base_currency',
  'bic',
  'country',
  'iban',
  'joint_account',
  'name',
  'secondary_identification',
  'status',
  'switched',
] as const;

/**
 * The fake account API's account model as it reads empty strings (interview-accountapi
 * `models.go`): `AccountData`'s `id`, `organisation_id` and `type` are Go `string`s, so `""` is
 * missing (`id in body is required`, as go-openapi's required-string check words it), and so are
 * seven attributes, so `""` is not given; `account_classification`, `country` and `status` are
 * pointers, and `""` is checked (`status in body should be one of [pending confirmed failed]`).
 */
export const FAKE_ACCOUNT_API_MODEL = {
  attributes: FAKE_ACCOUNT_API_ATTRIBUTES,
  emptyMeansAbsent: [
    'id',
    'organisation_id',
    'type',
    ...['account_number', 'bank_id', 'bank_id_code', 'base_currency', 'bic', 'iban', 'secondary_identification'].map(
      (a) => `attributes/${a}`,
    ),
  ],
} as const;

/** The enums of the fake account API's account model (see `FakeApiAccounts.attributeEnums`). */
const FAKE_ACCOUNT_API_ENUMS: Readonly<Record<string, readonly string[]>> = {
  account_classification: ['Personal', 'Business'],
  status: ['pending', 'confirmed', 'failed'],
};

/**
 * What the accounts collection does under these rules: Form3's keeps a sort code and account
 * number once per organisation (a second is a 409) and answers every attribute of its model; the
 * fake API's has only the id unique and answers only its model's attributes (the others are still
 * stored, and name verification still reads them).
 */
export function accountsOptions(rules: Rules): AccountsOptions {
  return rules === 'fake-account-api'
    ? { uniqueSortCodeAndNumber: false, answeredAttributes: FAKE_ACCOUNT_API_ATTRIBUTES }
    : { uniqueSortCodeAndNumber: true };
}

/** The registry under these rules. */
export function accountRegistry(rules: Rules, accounts: Accounts, opening: AccountOpening): AccountRegistry {
  return rules === 'fake-account-api' ? new FakeApiAccounts(accounts) : new Form3Accounts(accounts, opening);
}

/** Form3's rules: account-creation rules (account-opening.ts), the caller's organisation only. */
class Form3Accounts implements AccountRegistry {
  readonly anyOrganisation = false;
  readonly typeRequired = false;
  readonly anyVersionOnCreate = false;
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
  readonly typeRequired = true;
  readonly anyVersionOnCreate = true;
  /**
   * The fake API's model has enums where Form3's has other rules: `account_classification` is
   * `[Personal Business]` exactly (Form3's any case of personal or business, per the seed) and
   * `status` has no `closed` (go-form3's has). Its words, `account_classification in body should be
   * one of [Personal Business]` and `status in body should be one of [pending confirmed failed]`,
   * are what fake-API clients assert (../shared/reference/form3-contract.md §13, "POST
   * zero-valued attributes").
   */
  readonly attributeEnums = FAKE_ACCOUNT_API_ENUMS;
  readonly ownModel = FAKE_ACCOUNT_API_MODEL;
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
