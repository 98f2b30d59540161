// The payments a fresh double holds, as an organisation's staging environment holds a history: a
// few inbound Bacs credits to the seed accounts (fixtures/payments.json), each admitted on a Bacs
// working day before the scheme clock's start. A client that lists payments on a fresh double (as
// go-form3's own TestQueryPayments does) finds some, as it would on Form3's staging.
import type { BacsCalendar } from '../../clock/calendar.ts';
import { londonParts, londonTime } from '../../clock/london.ts';
import type { PaymentAttributes, Payments } from './payments.ts';

/** One seed payment: an inbound credit admitted some working days before the clock's start. */
export interface SeedPayment {
  id: string;
  /** The id of its Payment Admission. */
  admission_id: string;
  organisation_id: string;
  /**
   * Processed and admitted this many Bacs working days before the London date the double starts on
   * (1: the last working day before it), at 00:00 London, when the simulator's scheme steps run:
   * always in the past, whatever the clock starts at.
   */
  processed_working_days_ago: number;
  /** The payment's attributes but its dates, which the clock's start decides. */
  attributes: Omit<PaymentAttributes, 'processing_date' | 'scheme_processing_date'>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The seed payments of a fixtures file, checked: an Error names the first entry and field that is
 * wrong (the attributes are checked against the payment schema by the tests of the fixtures).
 */
export function checkSeedPayments(raw: unknown): SeedPayment[] {
  if (!Array.isArray(raw)) throw new Error('must be an array of seed payments');
  const ids = new Set<string>();
  raw.forEach((p: Partial<SeedPayment> | null, i) => {
    const where = `payment ${i}`;
    if (typeof p !== 'object' || p === null) throw new Error(`${where} must be an object`);
    for (const key of ['id', 'admission_id', 'organisation_id'] as const) {
      const value = p[key];
      if (typeof value !== 'string' || !UUID.test(value)) throw new Error(`${where}: ${key} must be a lower-case UUID`);
      if (key !== 'organisation_id' && ids.has(value)) throw new Error(`${where}: ${key} ${value} is used twice`);
      ids.add(value);
    }
    const days = p.processed_working_days_ago;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > 250)
      throw new Error(`${where}: processed_working_days_ago must be a whole number from 1 to 250`);
    if (typeof p.attributes !== 'object' || p.attributes === null)
      throw new Error(`${where}: attributes must be an object`);
  });
  return raw as SeedPayment[];
}

/**
 * Admits the seed payments (only those of `organisationId` when given: an organisation's reset),
 * dated from `now`, the scheme clock's time the double starts at.
 */
export function seedPayments(
  deps: { payments: Payments; calendar: BacsCalendar; now: Date },
  seeds: readonly SeedPayment[],
  organisationId?: string,
): void {
  const today = londonParts(deps.now).date;
  // Oldest first: a list shows payments in the order they came to be, as the contras are.
  const oldestFirst = [...seeds].sort((a, b) => b.processed_working_days_ago - a.processed_working_days_ago);
  for (const seed of oldestFirst) {
    if (organisationId !== undefined && seed.organisation_id !== organisationId) continue;
    const date = deps.calendar.addWorkingDays(today, -seed.processed_working_days_ago);
    deps.payments.admit({
      id: seed.id,
      admission_id: seed.admission_id,
      admitted_at: londonTime(date, 0),
      organisation_id: seed.organisation_id,
      attributes: { ...seed.attributes, processing_date: date, scheme_processing_date: date },
    });
  }
}
