// Opening an account under Form3's rules (`--auth on`): what the JSON Schema cannot say, such as a
// registered bank id, a generated account number and a calculated IBAN (decision 010).
import { randomInt } from 'node:crypto';
import type { Account, Accounts } from './accounts.ts';
import { invalid } from './errors.ts';
import { gbIban } from './iban.ts';
import type { Organisations } from './organisations.ts';

/** What opening an account is given: the body's id, organisation and attributes. */
export interface AccountInput {
  id: string;
  organisation_id: string;
  attributes: Record<string, unknown>;
}

const ATTRIBUTES = '/data/attributes';

/** A failure of Form3's account rules, as the API reports it (one line of data.attributes). */
export interface AccountRuleFailure {
  container: typeof ATTRIBUTES;
  field: string;
  text: string;
}

const failure = (field: string, text: string): AccountRuleFailure => ({ container: ATTRIBUTES, field, text });

const SORT_CODE = /^[0-9]{6}$/;
const GB_ACCOUNT_NUMBER = /^[0-9]{8}$/;

/**
 * The United Kingdom's rules (Form3's account-creation tutorial): bank id a 6-digit sort code and
 * BIC both required, bank id code GBDSC, account number 8 digits. Other countries: the model's
 * general patterns only (the schema's).
 */
function countryFailures(a: Record<string, unknown>): AccountRuleFailure[] {
  if (a.country !== 'GB') return [];
  const out: AccountRuleFailure[] = [];
  if (a.bank_id === undefined) out.push(failure('bank_id', 'bank_id in body is required for country GB'));
  else if (typeof a.bank_id === 'string' && !SORT_CODE.test(a.bank_id))
    out.push(failure('bank_id', `bank_id in body should match '${SORT_CODE.source}' for country GB`));
  if (a.bic === undefined) out.push(failure('bic', 'bic in body is required for country GB'));
  if (a.bank_id_code !== undefined && a.bank_id_code !== 'GBDSC')
    out.push(failure('bank_id_code', 'bank_id_code in body should be equal to "GBDSC" for country GB'));
  if (typeof a.account_number === 'string' && !GB_ACCOUNT_NUMBER.test(a.account_number))
    out.push(
      failure('account_number', `account_number in body should match '${GB_ACCOUNT_NUMBER.source}' for country GB`),
    );
  return out;
}

/** `name` is missing where it is mandatory (go-swagger's wording of a required field). */
export function missingName(attributes: Record<string, unknown>): AccountRuleFailure[] {
  return attributes.name === undefined ? [failure('name', 'name in body is required')] : [];
}

/**
 * Form3's account-creation rules (tutorial "Account creation", go-form3 account_attributes.go):
 * the bank id and BIC must be registered to the organisation; in the United Kingdom the bank id
 * (a 6-digit sort code) and the BIC are required; an omitted account number is generated, unique
 * within the sort code; an omitted IBAN is calculated, with valid check digits; `name` is
 * mandatory only for an organisation configured for name verification (it has a participant).
 * Form3's fake account API applies none of them (`--auth off` does not call this).
 */
export class AccountOpening {
  readonly #accounts: Accounts;
  readonly #organisations: Organisations;
  readonly #verifiesNames: (organisationId: string) => boolean;

  constructor(accounts: Accounts, organisations: Organisations, verifiesNames: (organisationId: string) => boolean) {
    this.#accounts = accounts;
    this.#organisations = organisations;
    this.#verifiesNames = verifiesNames;
  }

  /** The failures of the rules for a new account (none: it may be opened). */
  failuresOf(input: AccountInput): AccountRuleFailure[] {
    const a = input.attributes;
    const out = this.#registrationFailures(input.organisation_id, a);
    if (this.#verifiesNames(input.organisation_id)) out.push(...missingName(a));
    out.push(...countryFailures(a));
    return out;
  }

  /**
   * The failures of a change: a bank id or BIC it sets must be registered, and the account it
   * makes must keep its country's rules (country changed to GB with a bank id that is no sort code).
   */
  changeFailuresOf(
    organisationId: string,
    current: Record<string, unknown>,
    changes: Record<string, unknown>,
  ): AccountRuleFailure[] {
    return [...this.#registrationFailures(organisationId, changes), ...countryFailures({ ...current, ...changes })];
  }

  /** Opens the account, generating what Form3 generates; throws `invalid` naming a broken rule. */
  open(input: AccountInput): Account {
    const failures = this.failuresOf(input);
    if (failures.length > 0) throw invalid(`validation failure list:\n${failures.map((f) => f.text).join('\n')}`);
    return this.#accounts.create({ ...input, attributes: this.#completed(input) });
  }

  #registrationFailures(organisationId: string, a: Record<string, unknown>): AccountRuleFailure[] {
    const organisation = this.#organisations.get(organisationId);
    const out: AccountRuleFailure[] = [];
    const check = (field: 'bank_id' | 'bic', registered: string[] | undefined) => {
      const value = a[field];
      if (typeof value !== 'string' || !registered || registered.includes(value)) return;
      const list = registered.length > 0 ? registered.join(', ') : 'none';
      out.push(
        failure(
          field,
          `${field} in body ${value} is not registered to organisation ${organisationId} (registered: ${list})`,
        ),
      );
    };
    check('bank_id', organisation?.bank_ids);
    check('bic', organisation?.bics);
    return out;
  }

  /** The attributes with a GB account number and IBAN filled in where they were omitted. */
  #completed(input: AccountInput): Record<string, unknown> {
    const a = { ...input.attributes };
    if (a.country !== 'GB' || typeof a.bank_id !== 'string') return a;
    a.account_number ??= this.#freeAccountNumber(input.organisation_id, a.bank_id);
    if (a.iban === undefined && typeof a.bic === 'string') {
      a.iban = gbIban(a.bic.slice(0, 4), a.bank_id, String(a.account_number));
    }
    return a;
  }

  /** An 8-digit account number no account of the organisation holds under this sort code. */
  #freeAccountNumber(organisationId: string, sortCode: string): string {
    for (;;) {
      const candidate = String(randomInt(10_000_000, 100_000_000));
      if (!this.#accounts.findBySortCodeAndNumber(organisationId, sortCode, candidate)) return candidate;
    }
  }
}
