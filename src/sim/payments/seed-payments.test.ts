import { describe, expect, it } from 'vitest';
import { BacsCalendar } from '../../clock/calendar.ts';
import { SchemeClock } from '../../clock/scheme-clock.ts';
import { openStore } from '../../store/store.ts';
import { EventBus } from '../events.ts';
import { ResourcePaths } from '../resource-paths.ts';
import { Payments } from './payments.ts';
import { checkSeedPayments, type SeedPayment, seedPayments } from './seed-payments.ts';

const NORTHWIND = '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb';
const HARBOUR = '5b5a6b4d-0f1e-4f4e-9a57-3f1a8d8a2b11';

function seed(n: number, organisation_id: string, processed_working_days_ago: number): SeedPayment {
  const party = { account_number: '12345678', account_number_code: 'BBAN' as const, address: null };
  const hex = n.toString(16).padStart(12, '0');
  return {
    id: `00000000-0000-4000-8000-${hex}`,
    admission_id: `00000000-0000-4000-9000-${hex}`,
    organisation_id,
    processed_working_days_ago,
    attributes: {
      amount: `${n}.00`,
      currency: 'GBP',
      beneficiary_party: { ...party, account_with: { bank_address: null, bank_id: '400300', bank_id_code: 'GBDSC' } },
      debtor_party: { ...party, account_with: { bank_address: null, bank_id: '309634', bank_id_code: 'GBDSC' } },
      clearing_id: '612048',
      numeric_reference: String(n),
      scheme_transaction_id: `T${n}`,
      unique_scheme_id: `U${n}`,
      payment_scheme: 'Bacs',
      reference: `SEED ${n}`,
      scheme_payment_type: 'Credit',
    },
  };
}

async function payments(start: string) {
  const store = await openStore();
  const clock = new SchemeClock({ initial: SchemeClock.frozenAt(start) });
  const p = new Payments({ store, clock, events: new EventBus(), paths: new ResourcePaths() });
  return { payments: p, calendar: new BacsCalendar(), now: clock.now() };
}

describe('seedPayments', () => {
  it('admits each on the working day it names before the start, at 00:00 London, oldest first', async () => {
    // Monday 21 December 2026, 09:00.
    const deps = await payments('2026-12-21T09:00:00.000Z');
    seedPayments(deps, [seed(1, NORTHWIND, 1), seed(2, NORTHWIND, 3), seed(3, HARBOUR, 1)]);
    const listed = deps.payments.list(NORTHWIND);
    expect(listed.map((p) => [p.id, p.attributes.processing_date, p.attributes.scheme_processing_date])).toEqual([
      [seed(2, NORTHWIND, 3).id, '2026-12-16', '2026-12-16'],
      [seed(1, NORTHWIND, 1).id, '2026-12-18', '2026-12-18'],
    ]);
    const [older] = listed;
    expect(older!.created_on).toBe('2026-12-16T00:00:00.000Z');
    const admission = deps.payments.getAdmission(older!.id, seed(2, NORTHWIND, 3).admission_id, NORTHWIND);
    expect(admission.attributes).toMatchObject({ status: 'confirmed', admission_datetime: '2026-12-16T00:00:00.000Z' });
    expect(admission.created_on).toBe('2026-12-16T00:00:00.000Z');
    expect(deps.payments.list(HARBOUR)).toHaveLength(1);
  });

  it('skips the weekend and bank holidays before a start, in London summer time too', async () => {
    // Sunday 27 December 2026, after Christmas Day on the Friday: the last working day is Thursday.
    const winter = await payments('2026-12-27T12:00:00.000Z');
    seedPayments(winter, [seed(1, NORTHWIND, 1)]);
    expect(winter.payments.list(NORTHWIND)[0]!.attributes.processing_date).toBe('2026-12-24');
    // Tuesday 4 August 2026, 00:30 London (23:30 UTC on the Monday): the day before is Monday's.
    const summer = await payments('2026-08-03T23:30:00.000Z');
    seedPayments(summer, [seed(1, NORTHWIND, 1)]);
    const [p] = summer.payments.list(NORTHWIND);
    expect(p!.attributes.processing_date).toBe('2026-08-03');
    expect(p!.created_on).toBe('2026-08-02T23:00:00.000Z');
  });

  it("seeds only the organisation's own for an organisation's reset", async () => {
    const deps = await payments('2026-12-21T09:00:00.000Z');
    seedPayments(deps, [seed(1, NORTHWIND, 1), seed(2, HARBOUR, 1)], HARBOUR);
    expect(deps.payments.list(NORTHWIND)).toEqual([]);
    expect(deps.payments.list(HARBOUR).map((p) => p.id)).toEqual([seed(2, HARBOUR, 1).id]);
  });
});

describe('checkSeedPayments', () => {
  it('names the entry and the field that is wrong', () => {
    expect(checkSeedPayments([seed(1, NORTHWIND, 1)])).toHaveLength(1);
    const bad = (change: object) => () =>
      checkSeedPayments([seed(1, NORTHWIND, 1), { ...seed(2, NORTHWIND, 1), ...change }]);
    expect(() => checkSeedPayments({})).toThrow('must be an array of seed payments');
    expect(bad({ id: 'banana' })).toThrow('payment 1: id must be a lower-case UUID');
    expect(bad({ admission_id: seed(1, NORTHWIND, 1).id })).toThrow(/payment 1: admission_id .* is used twice/);
    expect(bad({ processed_working_days_ago: 0 })).toThrow(
      'payment 1: processed_working_days_ago must be a whole number',
    );
    expect(bad({ processed_working_days_ago: 1.5 })).toThrow('processed_working_days_ago');
    expect(bad({ attributes: null })).toThrow('payment 1: attributes must be an object');
  });
});
