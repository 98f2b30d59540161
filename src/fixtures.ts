// The one reader of fixtures/: every file the simulator starts from is read here, from the folder the
// runtime was given (RuntimeOptions.fixturesDir), so a team's own fixtures replace all of them.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OAuthClient } from './api/auth/clients.ts';
import type { HolidayTable } from './clock/bank-holidays.ts';
import type { CalendarOverrides } from './clock/calendar.ts';
import type { SeedAccount } from './sim/accounts.ts';
import type { Participant } from './sim/cop/participant.ts';
import type { Organisation } from './sim/organisations.ts';
import { checkSeedPayments, type SeedPayment } from './sim/payments/seed-payments.ts';
import { type CatalogueEntry, validateCatalogue } from './sim/reports/catalogue.ts';
import { type ServiceUser, validateServiceUsers } from './sim/reports/service-users.ts';

/** The fixtures shipped with the package. */
export const FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export function readJsonFile<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (err) {
    throw new Error(`cannot read ${path}: ${(err as Error).message}`);
  }
}

function optional<T>(path: string, absent: T): T {
  return existsSync(path) ? readJsonFile<T>(path) : absent;
}

/** What a fixtures folder holds; only organisations.json and reports/catalogue.json are required. */
export interface Fixtures {
  organisations: Organisation[];
  participants: Participant[];
  calendarOverrides: CalendarOverrides;
  holidayTable: HolidayTable;
  reportCatalogue: CatalogueEntry[];
  /** Who reports are addressed to (reports/service-users.json; optional). */
  reportServiceUsers: ServiceUser[];
  /** Read on demand: a store that already holds accounts never needs them. */
  seedAccounts(): SeedAccount[];
  /** The payments a fresh double holds (payments.json; optional), read on demand as the accounts. */
  seedPayments(): SeedPayment[];
  clients(file?: string): OAuthClient[];
}

export function readFixtures(dir: string = FIXTURES_DIR): Fixtures {
  const catalogueFile = join(dir, 'reports', 'catalogue.json');
  let reportCatalogue: CatalogueEntry[];
  try {
    reportCatalogue = validateCatalogue(readJsonFile<unknown>(catalogueFile));
  } catch (err) {
    throw new Error(`report catalogue ${catalogueFile}: ${(err as Error).message}`);
  }
  const serviceUsersFile = join(dir, 'reports', 'service-users.json');
  let reportServiceUsers: ServiceUser[];
  try {
    reportServiceUsers = validateServiceUsers(optional<unknown>(serviceUsersFile, []));
  } catch (err) {
    throw new Error(`report service users ${serviceUsersFile}: ${(err as Error).message}`);
  }
  const accountsFile = join(dir, 'accounts.json');
  const paymentsFile = join(dir, 'payments.json');
  return {
    organisations: readJsonFile<Organisation[]>(join(dir, 'organisations.json')),
    participants: optional<Participant[]>(join(dir, 'participants.json'), []),
    calendarOverrides: optional<CalendarOverrides>(join(dir, 'calendar', 'overrides.json'), {}),
    holidayTable: optional<HolidayTable>(join(dir, 'calendar', 'bank-holidays.json'), {}),
    reportCatalogue,
    reportServiceUsers,
    seedAccounts: () => optional<SeedAccount[]>(accountsFile, []),
    seedPayments: () => {
      try {
        return checkSeedPayments(optional<unknown>(paymentsFile, []));
      } catch (err) {
        throw new Error(`seed payments ${paymentsFile}: ${(err as Error).message}`);
      }
    },
    clients: (file) => readJsonFile<OAuthClient[]>(file ?? join(dir, 'clients.json')),
  };
}
