// What a report's content is drawn from: the report, its service user, the scheme calendar and a
// faker seeded from the report id (the same report always draws the same content).
import type { Faker } from '@faker-js/faker';
import { type FieldSpec, type Item, readRow } from './report-items.ts';
import type { OriginatingAccount, ServiceUser } from './service-users.ts';

export interface ReportContext {
  reportId: string;
  reportType: string;
  title: string;
  /** The report's processing_date: every date in the content is read from it. */
  processingDate: string;
  generationTime: string;
  user: ServiceUser;
  organisationName: string;
  faker: Faker;
  /** The Bacs working day `n` working days before `date` (n ≥ 0). */
  workingDaysBefore(date: string, n: number): string;
  /** The Bacs working day `n` working days after `date` (n ≥ 0). */
  workingDaysAfter(date: string, n: number): string;
  isBacsWorkingDay(date: string): boolean;
  /** Rows the report arrived with (a client's, or the simulation's own), when it has them. */
  given?: ReadonlyArray<Record<string, unknown>>;
}

/** Draws one item; `i` is its position. */
export type ItemMaker = (i: number) => Item;

/**
 * The items of a report: one per given row (its fields over drawn ones), else between `min` and
 * `max` drawn items. Drawn values come from the seeded faker, so the result is the same every time.
 */
export function drawItems(
  ctx: ReportContext,
  fields: readonly FieldSpec[],
  make: ItemMaker,
  min: number,
  max: number,
): Item[] {
  if (ctx.given) return ctx.given.map((row, i) => ({ ...make(i), ...readRow(fields, row) }));
  const n = ctx.faker.number.int({ min, max });
  return Array.from({ length: n }, (_, i) => make(i));
}

const BRANCHES = [
  'LONDON',
  'LEEDS',
  'BRISTOL',
  'MANCHESTER',
  'CARDIFF',
  'GLASGOW',
  'NORWICH',
  'YORK',
  'EXETER',
  'BIRMINGHAM',
  'NOTTINGHAM',
  'BELFAST',
];

export const draw = {
  sortCode: (f: Faker) => f.string.numeric(6),
  accountNumber: (f: Faker) => f.string.numeric(8),
  /** An amount in pounds with 2 decimals, from whole pence in [min, max]. */
  amount: (f: Faker, min = 100, max = 250_000) => {
    const pence = f.number.int({ min, max });
    return `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')}`;
  },
  /** A service user's reference for a payer: upper-case letters and digits. */
  reference: (f: Faker, prefix = '') => `${prefix}${f.string.alphanumeric({ length: 10, casing: 'upper' })}`,
  /** A payer's name as Bacs carries it: "SURNAME I", at most 18 characters. */
  holder: (f: Faker) =>
    `${f.person
      .lastName()
      .toUpperCase()
      .replace(/[^A-Z -]/g, '')} ${f.person.firstName().charAt(0).toUpperCase()}`.slice(0, 18),
  bankName: (f: Faker) =>
    f.helpers.arrayElement([
      'BARCLAYS BANK PLC',
      'LLOYDS BANK PLC',
      'HSBC UK BANK PLC',
      'NATWEST',
      'SANTANDER UK PLC',
      'NATIONWIDE BS',
    ]),
  branchName: (f: Faker) => f.helpers.arrayElement(BRANCHES),
  /** A time of day "HH:MM:SS" between 07:00 and 22:00 (the Bacs input window). */
  time: (f: Faker) =>
    `${String(f.number.int({ min: 7, max: 21 })).padStart(2, '0')}:${String(f.number.int({ min: 0, max: 59 })).padStart(2, '0')}:${String(f.number.int({ min: 0, max: 59 })).padStart(2, '0')}`,
};

/** Which of the service user's originating accounts an item draws (kept with the item, not a field). */
export const ACCOUNT_INDEX = '_account';

export function drawAccountIndex(ctx: ReportContext): string {
  return String(ctx.faker.number.int({ min: 0, max: ctx.user.originating_accounts.length - 1 }));
}

/** The originating account an item belongs to. */
export function originatingAccountOf(ctx: ReportContext, item: Item): OriginatingAccount {
  const accounts = ctx.user.originating_accounts;
  return accounts[Number(item[ACCOUNT_INDEX] ?? 0) % accounts.length]!;
}

/** Items grouped by originating account, in the order of the service user's accounts. */
export function byOriginatingAccount(
  ctx: ReportContext,
  items: Item[],
): Array<{ account: OriginatingAccount; items: Item[] }> {
  return ctx.user.originating_accounts
    .map((account) => ({ account, items: items.filter((it) => originatingAccountOf(ctx, it) === account) }))
    .filter((g) => g.items.length > 0);
}

/** A report number of three digits drawn for the report (adviceNumber, reportNumber). */
export function adviceNumber(ctx: ReportContext): string {
  return String(ctx.faker.number.int({ min: 1, max: 999 })).padStart(3, '0');
}
