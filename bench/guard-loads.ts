// The loads of the CI ratio guard (bench/ratio-guard.ts): what each sends to the simulator and to
// bare Hono, and the budget each is held to. Kept apart from the guard's measuring so that the
// request bodies can be tested without starting a server (guard-loads.test.ts).
import { JSON_SERVER_SHARE_OF_BARE } from './lists.ts';
import { ACCOUNTS_PATH, accountCreateBody, type Traffic } from './processes.ts';

export const KINDS = ['list', 'cop-repeated', 'cop-new-names', 'cop-signed-afresh', 'create'] as const;
export type Kind = (typeof KINDS)[number];

/**
 * Each budget in the guard's unit (higher is better; the guard fails below half of it):
 * - create, cop-repeated, cop-signed-afresh, list: bare Hono's server CPU per request ÷ the
 *   simulator's. Issue 46: a create ≤ 4 × bare Hono's CPU (0.25), name verification with repeated
 *   bodies ≤ 2 × (0.5). Answers signed afresh have no budget of their own in the issue: they are held
 *   to the repeated bodies' 2 ×, against a bare Hono that signs each answer with node:crypto's bare
 *   RSASSA-PSS (the least a signed answer costs). The list: ≥ json-server's share (bench/lists.ts).
 * - cop-new-names: issue 46's ≥ 0.75 of bare Hono's THROUGHPUT, as bench/cop.ts measures it: client
 *   and server on one thread, so a request costs the client's CPU c plus the server's. The guard
 *   measures c (its own process's CPU per request: it only runs the load generator) beside the two
 *   servers' b and s, and holds (c + b) ÷ (c + s), the throughput share that setting would see.
 */
export const BUDGETS: Record<Kind, number> = {
  create: 1 / 4,
  'cop-repeated': 1 / 2,
  'cop-new-names': 0.75,
  'cop-signed-afresh': 1 / 2,
  list: JSON_SERVER_SHARE_OF_BARE,
};

/** Whether a kind's figure is the modelled throughput share (see BUDGETS) rather than a CPU share. */
export const THROUGHPUT_SHARE: ReadonlySet<Kind> = new Set(['cop-new-names']);

export const NAME_VERIFICATION_PATH =
  '/v1/participants/0015800001041REAAY/open-banking/v3.1/accounts/name-verification';

const nameVerificationBody = (identification: string, name: string, accountType = 'Personal') =>
  JSON.stringify({
    Data: { SchemeName: 'SortCodeAccountNumber', AccountType: accountType, Identification: identification, Name: name },
  });

/** A seed account (fixtures/accounts.json), asked with three close names: after 3 requests all are cached. */
export const NAME_VERIFICATION_BODIES = ['Sam Holder', 'Samantha Holder', 'S Holder'].map((name) =>
  nameVerificationBody('40030012345678', name),
);

/** Northwind's seed accounts that answer a plain report (none opted out, switched or needing a secondary id). */
const SEED_ACCOUNTS: ReadonlyArray<readonly [identification: string, held: string, type?: 'Business']> = [
  ['40030012345678', 'Samantha Holder'],
  ['40030023456789', 'John Smith & Jane Smith'],
  ['40030034567890', 'Acme Bakery Company Ltd', 'Business'],
  ['40030070005481', 'Kreiger - Goodwin', 'Business'],
  ['40030170011731', 'Arno Lubowitz-Fritsch & Homer Lubowitz-Fritsch'],
  ['40030070033300', 'Moriah Gleichner'],
  ['40030270052187', 'Bethel Kihn & Roselyn Kihn'],
  ['40030170075689', 'Fletcher Blick'],
  ['40030070090678', "Chadd O'Conner & Mckenna O'Conner"],
  ['40030270110562', 'Zakary Windler'],
  ['40030070126926', 'Fahey-Quitzon Inc', 'Business'],
  ['40030170190946', 'Maya Douglas'],
];

/** n in letters a–z, least significant first: "a", "b", …, "z", "ab", … */
function letters(n: number): string {
  let out = '';
  do {
    out += String.fromCharCode(97 + (n % 26));
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
}

/**
 * Request body `n` of a load in which every name is new to the matcher: the seed accounts in turn,
 * each asked its holder's name with a typo of its own, letters made from n on the last word
 * ("Maya Douglasb"). Different words, not only different spacing, so no normalising of the name
 * before a cache lookup can make two of them one. The answer of an account is the same for every
 * such name (a close match naming the holder), so its signature comes from the cache.
 */
export function newNameBody(n: number): string {
  const [identification, held, type] = SEED_ACCOUNTS[n % SEED_ACCOUNTS.length]!;
  return nameVerificationBody(identification, `${held}${letters(Math.floor(n / SEED_ACCOUNTS.length))}`, type);
}

/** The seed's 80 accounts on one page: read before any create, so both sides answer the same page. */
export const LIST_PATH = `${ACCOUNTS_PATH}?page[size]=100`;

/** Names asked so far by this process: no name is asked twice, whichever server and round asks it. */
let namesAsked = 0;

/** What a kind sends: the same requests to the simulator and to bare Hono. */
export function traffic(kind: Kind, headers: Record<string, string>): Traffic {
  if (kind === 'create') return { path: ACCOUNTS_PATH, method: 'POST', headers, makeBody: accountCreateBody };
  if (kind === 'list') return { path: LIST_PATH, method: 'GET', headers };
  if (kind === 'cop-new-names')
    return { path: NAME_VERIFICATION_PATH, method: 'POST', headers, makeBody: () => newNameBody(namesAsked++) };
  return { path: NAME_VERIFICATION_PATH, method: 'POST', headers, bodies: NAME_VERIFICATION_BODIES };
}
