// The accounts name verification answers from: the account resource, the defaults Form3 gives it,
// and the registry that finds one by sort code and account number.
import { conflict } from './errors.ts';
import { Repository, type RepositoryContext } from './repository.ts';
import type { Resource } from './resource.ts';

export type AccountClassification = 'Personal' | 'Business';
export type NameMatchingStatus = 'supported' | 'switched' | 'opted_out' | 'not_supported';

export interface AccountAttributes {
  country?: string;
  base_currency?: string;
  bank_id?: string;
  bank_id_code?: string;
  account_number?: string;
  bic?: string;
  iban?: string;
  customer_id?: string;
  name?: string[];
  alternative_names?: string[];
  account_classification?: AccountClassification;
  joint_account?: boolean;
  account_matching_opt_out?: boolean;
  secondary_identification?: string;
  switched?: boolean;
  name_matching_status?: NameMatchingStatus;
  [other: string]: unknown;
}

export type Account = Resource<AccountAttributes>;

/**
 * What name verification reads of an account, Form3's defaults applied: always these fields, in
 * this order, so every account's reading has one object shape and V8 reads its fields by one
 * cached offset. A copy of the attributes had the shape of whatever keys each client sent, and
 * `decide`'s reads of it were the largest self time of a name new to the matcher (3.8 µs a
 * request; bench/RESULTS.md, 2026-11-29).
 */
export interface AccountInBehaviour {
  name: string[] | undefined;
  alternative_names: string[] | undefined;
  account_classification: AccountClassification;
  joint_account: boolean;
  account_matching_opt_out: boolean;
  switched: boolean;
  name_matching_status: NameMatchingStatus | undefined;
  secondary_identification: string | undefined;
}

/** An account as fixtures/accounts.json holds it (written by scripts/seed-accounts.ts). */
export interface SeedAccount {
  id: string;
  organisation_id: string;
  attributes: Record<string, unknown>;
}

export const ACCOUNT_TYPE = 'accounts';
const DUPLICATE = 'Account cannot be created as it violates a duplicate constraint';

/** Filters of the account list, each an exact match on the attribute. */
/** The account list's filters: every one Form3's swagger names (go-form3 ListAccountsRequest). */
export const ACCOUNT_FILTERS = [
  'account_number',
  'bank_id',
  'bank_id_code',
  'country',
  'customer_id',
  'iban',
  'organisation_id',
  'type',
] as const;
/** Each filter: one value, or several of which any matches. */
export type AccountFilter = Partial<Record<(typeof ACCOUNT_FILTERS)[number], string | readonly string[]>>;

function sortCodeKey(
  organisationId: string,
  bankId: string | undefined,
  accountNumber: string | undefined,
): string | undefined {
  if (!bankId || !accountNumber) return undefined;
  // join, not a template: a template's text is a rope of cons strings, which the index would keep
  // as four objects per account for every full collection to mark; join makes one flat string.
  return [organisationId, bankId, accountNumber].join('|');
}

/** Capitalised classification (the API accepts any case); Personal when omitted. */
export function normaliseClassification(value: unknown): AccountClassification {
  if (typeof value !== 'string') return 'Personal';
  return value.toLowerCase() === 'business' ? 'Business' : 'Personal';
}

/**
 * The defaults Form3 gives omitted attributes (classification Personal, not joint, not opted
 * out), applied where they change behaviour; never written into the resource, as Form3 echoes
 * only what the client sent.
 */
export function inBehaviour(attributes: AccountAttributes): AccountInBehaviour {
  let read = IN_BEHAVIOUR.get(attributes);
  if (!read) {
    read = {
      name: attributes.name,
      alternative_names: attributes.alternative_names,
      account_classification: normaliseClassification(attributes.account_classification),
      joint_account: attributes.joint_account === true,
      account_matching_opt_out: attributes.account_matching_opt_out === true,
      switched: attributes.switched === true,
      name_matching_status: attributes.name_matching_status,
      secondary_identification: attributes.secondary_identification,
    };
    IN_BEHAVIOUR.set(attributes, read);
  }
  return read;
}

/**
 * One reading per stored attributes object (a change stores a new one, so none goes stale): name
 * verification's matcher keeps its candidate names per object it is given (cop/names.ts), and a
 * new object per request would make it work them out again on every request.
 */
const IN_BEHAVIOUR = new WeakMap<AccountAttributes, AccountInBehaviour>();

/** As stored: a classification given in any case is kept capitalised; nothing else is added. */
function asStored(attributes: Record<string, unknown>): AccountAttributes {
  if (attributes.account_classification === undefined) return attributes as AccountAttributes;
  return {
    ...attributes,
    account_classification: normaliseClassification(attributes.account_classification),
  } as AccountAttributes;
}

/** What differs between Form3's accounts and the fake account API's (account-registry.ts chooses). */
export interface AccountsOptions {
  /** A sort code (bank_id) and account_number pair is registered once per organisation (else 409). */
  uniqueSortCodeAndNumber: boolean;
  /** The attributes answers show (every one stored when undefined); the rest stay stored. */
  answeredAttributes?: readonly string[];
}

/** The accounts registry: what name verification looks up. */
export class Accounts {
  readonly repo: Repository<AccountAttributes>;
  readonly #unique: boolean;

  constructor(ctx: RepositoryContext, options: AccountsOptions = { uniqueSortCodeAndNumber: true }) {
    this.#unique = options.uniqueSortCodeAndNumber;
    const answered = options.answeredAttributes && new Set(options.answeredAttributes);
    this.repo = new Repository<AccountAttributes>(ctx, ACCOUNT_TYPE, {
      duplicate: DUPLICATE,
      path: (r) => `/v1/organisation/accounts/${r.id}`,
      ...(answered ? { view: (a) => ({ ...a, attributes: only(a.attributes, answered) }) } : {}),
    });
    this.repo.rows.defineIndex('sort_code_account', (a) =>
      sortCodeKey(a.organisation_id, a.attributes.bank_id, a.attributes.account_number),
    );
  }

  create(input: { id: string; organisation_id: string; attributes: Record<string, unknown> }): Account {
    const attributes = asStored(input.attributes);
    this.#assertUnique(input.organisation_id, attributes, input.id);
    return this.repo.create({ id: input.id, organisation_id: input.organisation_id, attributes });
  }

  get(id: string, organisationId: string): Account {
    return this.repo.get(id, organisationId);
  }

  /** The organisation's accounts (every organisation's when undefined: `--auth off`), filtered. */
  list(organisationId: string | undefined, filter: AccountFilter = {}): Account[] {
    return this.repo.list(organisationId, filter);
  }

  /** The organisation an account belongs to, if it exists. */
  organisationOf(id: string): string | undefined {
    return this.repo.find(id)?.organisation_id;
  }

  /** Merges changed attributes at the expected version. */
  update(id: string, organisationId: string, version: number, changes: Record<string, unknown>): Account {
    return this.repo.update(
      id,
      organisationId,
      (a) => {
        const attributes = asStored({ ...a.attributes, ...changes });
        this.#assertUnique(organisationId, attributes, id);
        return { ...a, attributes };
      },
      version,
    );
  }

  delete(id: string, organisationId: string, version: number): void {
    this.repo.delete(id, organisationId, version);
  }

  /** The organisation's account with this sort code and account number (indexed, never a scan). */
  findBySortCodeAndNumber(organisationId: string, sortCode: string, accountNumber: string): Account | undefined {
    const key = sortCodeKey(organisationId, sortCode, accountNumber);
    return key ? this.repo.rows.first('sort_code_account', key) : undefined;
  }

  #assertUnique(organisationId: string, attributes: AccountAttributes, id: string): void {
    if (!this.#unique) return;
    const other = this.findBySortCodeAndNumber(
      organisationId,
      attributes.bank_id ?? '',
      attributes.account_number ?? '',
    );
    if (other && other.id !== id) {
      throw conflict(
        `${DUPLICATE}: bank_id ${attributes.bank_id} with account_number ${attributes.account_number} is already registered`,
      );
    }
  }
}

/** The attributes of these names, in the record's order. */
function only(attributes: AccountAttributes, names: ReadonlySet<string>): AccountAttributes {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attributes)) if (names.has(k)) out[k] = v;
  return out as AccountAttributes;
}
