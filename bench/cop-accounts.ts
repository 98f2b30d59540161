// The name-verification bench's participant and its deterministic accounts: held names of
// people, joint holders and businesses, and the names a payer might type for them.
export const NW = {
  id: '0015800001041REAAY',
  organisation: '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb',
  sortCodes: ['400300', '400301', '400302'],
};
export const PATH = `/v1/participants/${NW.id}/open-banking/v3.1/accounts/name-verification`;

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
