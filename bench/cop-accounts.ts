// The name-verification bench's participant and its deterministic accounts: held names of
// people, joint holders and businesses, and the names a payer might type for them.
import { newId } from '../src/sim/new-id.ts';
export const NW = {
  id: '0015800001041REAAY',
  organisation: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb',
  sortCodes: ['400300', '400301', '400302'],
};
export const PATH = `/v1/participants/${NW.id}/open-banking/v3.1/accounts/name-verification`;

/** What of a runtime (the built dist/'s or the sources') registering the bench's accounts needs. */
interface AccountsHolder {
  sim: { accounts: { create(input: object): unknown }; store: { commit(): Promise<unknown> } };
}

/** Registers accounts 0 … count-1 with the bench participant's organisation, committed. */
export async function registerAccounts(runtime: AccountsHolder, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const a = account(i);
    runtime.sim.accounts.create({
      // An id as a client's JSON gives it: one flat string. crypto.randomUUID()'s text is a rope of
      // 15 objects, which 100,000 stored accounts would keep: 48 MB more for every full collection
      // to mark than any store the simulator fills from requests or from a data file holds.
      id: newId(),
      organisation_id: NW.organisation,
      attributes: {
        bank_id: a.sortCode,
        account_number: a.number,
        name: [a.held],
        account_classification: a.classification,
        joint_account: a.joint,
      },
    });
  }
  await runtime.sim.store.commit();
}

const FIRST = [
  'Samantha',
  'Robert',
  'William',
  'Elizabeth',
  'James',
  'Margaret',
  'John',
  'Sarah',
  'Michael',
  'Katherine',
  'Amir',
  'Priya',
  'Zoë',
  'José',
];
const LAST = [
  'Holder',
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Álvarez',
  'Khan',
  'Patel',
  'Smith-Jones',
  "O'Brien",
  'MacDonald',
];

/** Deterministic account i: sort code, number, held name, and a name a payer might type. */
export function account(i: number) {
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
  const business = i % 10 === 9;
  const joint = i % 10 === 8;
  const held = business ? `${last} Trading ${i} Ltd` : joint ? `${first} ${last} & Alex ${last}` : `${first} ${last}`;
  const asked = [held, `${first[0]} ${last}`, `${first} Unrelated`, `Mr ${held.toUpperCase()}`][i % 4]!;
  return {
    sortCode: NW.sortCodes[i % NW.sortCodes.length]!,
    number: String(10_000_000 + i),
    held,
    asked,
    classification: business ? 'Business' : 'Personal',
    joint,
  };
}

/**
 * Request body `n` of a load in which no account is asked the same name twice within 40 asks, more
 * than the matcher keeps per account: the accounts of the benchmark's 500 bodies, each asked its
 * name with 2–41 spaces after the first word. The words are the same, so the answer (and its
 * cached signature) is too; only the matching is done afresh.
 */
export function freshNameBody(n: number, accounts: number): string {
  const a = account(((n % 500) * 199) % accounts);
  const spaces = ' '.repeat(2 + (Math.floor(n / 500) % 40));
  return JSON.stringify({
    Data: {
      SchemeName: 'SortCodeAccountNumber',
      AccountType: a.classification,
      Identification: `${a.sortCode}${a.number}`,
      Name: a.asked.replace(' ', spaces),
    },
  });
}
