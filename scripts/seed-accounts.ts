// The seed accounts of fixtures/accounts.json: a few hand-written ones that show every outcome,
// then deterministic faker accounts (fixed seed) for each participant. Regenerate with
// `npm run fixtures:accounts`; a unit test checks the file still equals this output.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fakerEN_GB as faker } from '@faker-js/faker';
import type { SeedAccount } from '../src/sim/accounts.ts';
import type { Participant } from '../src/sim/cop/participant.ts';
import { gbIban } from '../src/sim/iban.ts';
import type { Organisation } from '../src/sim/organisations.ts';

export const SEED = 4;

/** A GB account as Form3 opens it: the organisation's BIC, an IBAN with valid check digits. */
function attributes(
  bic: string,
  sortCode: string,
  accountNumber: string,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  // Two random digits were once the IBAN's check digits; still drawn so the seeded names (in docs
  // and tests) stay the same.
  faker.string.numeric(2);
  return {
    country: 'GB',
    base_currency: 'GBP',
    bank_id: sortCode,
    bank_id_code: 'GBDSC',
    bic,
    account_number: accountNumber,
    iban: gbIban(bic.slice(0, 4), sortCode, accountNumber),
    ...extra,
  };
}

/** Hand-written accounts of the first participant: one per outcome, named in README and docs/cop.md. */
function showcase(p: Participant): Array<[string, Record<string, unknown>]> {
  const sc = p.sort_codes[0]!;
  return [
    ['12345678', { name: ['Samantha Holder'], account_classification: 'Personal' }],
    ['23456789', { name: ['John Smith & Jane Smith'], joint_account: true, account_classification: 'Personal' }],
    ['34567890', { name: ['Acme Bakery Company Ltd'], alternative_names: ['ABC'], account_classification: 'Business' }],
    ['45678901', { name: ['Olive Optout'], account_matching_opt_out: true, account_classification: 'Personal' }],
    ['56789012', { name: ['Simon Switcher'], switched: true, account_classification: 'Personal' }],
    [
      '67890123',
      { name: ['Rolland Number'], secondary_identification: 'ROLL-1234', account_classification: 'Personal' },
    ],
    [
      '78901234',
      { name: ['Nadia Nosupport'], name_matching_status: 'not_supported', account_classification: 'Personal' },
    ],
    ['89012345', { name: ['John Smith T/A Smith Plumbing'], account_classification: 'Business' }],
  ].map(([n, a]) => [`${sc}|${n}`, a as Record<string, unknown>]);
}

function fakeName(kind: number): Record<string, unknown> {
  if (kind === 0) return { name: [faker.company.name()], account_classification: 'Business' };
  if (kind === 1) {
    const surname = faker.person.lastName();
    return {
      name: [`${faker.person.firstName()} ${surname} & ${faker.person.firstName()} ${surname}`],
      joint_account: true,
      account_classification: 'Personal',
    };
  }
  if (kind === 2)
    return { name: [faker.person.firstName(), faker.person.lastName()], account_classification: 'Personal' };
  return {
    name: [
      faker.person
        .fullName({ sex: faker.helpers.arrayElement(['female', 'male']) })
        .replace(/^(Mr|Mrs|Ms|Miss|Dr)\.? /, ''),
    ],
    account_classification: 'Personal',
  };
}

/** Deterministic seed accounts: the showcase, then `perParticipant` faker accounts for each participant. */
export function generateSeedAccounts(
  participants: Participant[],
  organisations: Organisation[],
  perParticipant = 24,
): SeedAccount[] {
  faker.seed(SEED);
  const bicOf = (organisationId: string) => {
    const bic = organisations.find((o) => o.id === organisationId)?.bics?.[0];
    if (!bic) throw new Error(`organisation ${organisationId} has no BIC in organisations.json`);
    return bic;
  };
  const out: SeedAccount[] = [];
  const first = participants[0];
  if (first) {
    for (const [key, extra] of showcase(first)) {
      const [sc, number] = key.split('|') as [string, string];
      out.push({
        id: faker.string.uuid(),
        organisation_id: first.organisation_id,
        attributes: attributes(bicOf(first.organisation_id), sc, number, extra),
      });
    }
  }
  for (const p of participants) {
    for (let i = 0; i < perParticipant; i++) {
      const sc = p.sort_codes[i % p.sort_codes.length]!;
      const number = `7${String(i).padStart(3, '0')}${faker.string.numeric(4)}`;
      out.push({
        id: faker.string.uuid(),
        organisation_id: p.organisation_id,
        attributes: attributes(bicOf(p.organisation_id), sc, number, fakeName(i % 4)),
      });
    }
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const fixtures = join(import.meta.dirname, '..', 'fixtures');
  const read = <T>(file: string) => JSON.parse(readFileSync(join(fixtures, file), 'utf8')) as T;
  const accounts = generateSeedAccounts(
    read<Participant[]>('participants.json'),
    read<Organisation[]>('organisations.json'),
  );
  writeFileSync(join(fixtures, 'accounts.json'), `${JSON.stringify(accounts, null, 2)}\n`);
  console.log(`wrote ${join(fixtures, 'accounts.json')}`);
}
