// The money a settled claim brings back arrives as an inbound payment: the payment and admission
// resources a client reads, which only the simulator creates.
import { isoTimestamp } from '../../clock/clock.ts';
import { type FilterField, filterPredicate, valueAt } from '../list-filter.ts';
import { newId } from '../new-id.ts';
import { Repository, type RepositoryContext } from '../repository.ts';
import { type Resource, ref, relatedId } from '../resource.ts';

export const PAYMENT_TYPE = 'payments';
export const PAYMENT_ADMISSION_TYPE = 'payment_admissions';

/** A party of a payment, in the shape the API material shows. */
export interface PaymentParty {
  account_name?: string;
  account_number: string;
  account_number_code: 'BBAN';
  account_with: { bank_address: string[] | null; bank_id: string; bank_id_code: 'GBDSC' };
  address: string[] | null;
}

export interface PaymentAttributes {
  amount: string;
  currency: 'GBP';
  beneficiary_party: PaymentParty;
  debtor_party: PaymentParty;
  clearing_id: string;
  numeric_reference: string;
  scheme_transaction_id: string;
  unique_scheme_id: string;
  payment_scheme: 'Bacs';
  processing_date: string;
  scheme_processing_date: string;
  reference: string;
  scheme_payment_type: 'Credit';
  /** The contra's `DDICSettlement`; an ordinary credit has none. */
  scheme_payment_sub_type?: string;
}

export interface PaymentAdmissionAttributes {
  status: 'confirmed';
  status_reason: 'accepted';
  scheme_status_code: string;
  scheme_status_code_description: string;
  admission_datetime: string;
}

export type Payment = Resource<PaymentAttributes>;
export type PaymentAdmission = Resource<PaymentAdmissionAttributes>;

/** Filters of the payment list: those of Form3's swagger for what a contra carries, plus processing_date. */
export const PAYMENT_FILTERS = [
  'processing_date',
  'processing_date_from',
  'processing_date_to',
  'admission.status',
  'admission.admission_date_from',
  'admission.admission_date_to',
  'amount',
  'currency',
  'payment_scheme',
  'scheme_payment_sub_type',
  'scheme_payment_type',
  'reference',
  'unique_scheme_id',
  'scheme_transaction_id',
  'beneficiary_party.account_number',
  'beneficiary_party.bank_id',
  'debtor_party.account_number',
  'debtor_party.bank_id',
] as const;
export type PaymentFilter = Partial<Record<(typeof PAYMENT_FILTERS)[number], string | readonly string[]>>;

/** An inbound payment to record with its admission (the contra of a claims settlement is one). */
export interface InboundPayment {
  organisation_id: string;
  attributes: PaymentAttributes;
  /** Extra relationships of the payment (e.g. `claims`). */
  relationships?: Payment['relationships'];
  /** The ids of the payment and its admission (new ones when omitted: a seed payment names its own). */
  id?: string;
  admission_id?: string;
  /** When it was admitted, and both records made (the scheme clock's now when omitted). */
  admitted_at?: Date;
}

/**
 * Inbound payments and their admissions. The simulator creates them (clients only read): the DDIC
 * settlement contra, and the seed payments a fresh double starts with (seed-payments.ts).
 */
export class Payments {
  readonly payments: Repository<PaymentAttributes>;
  readonly admissions: Repository<PaymentAdmissionAttributes>;
  readonly #events: RepositoryContext['events'];

  constructor(ctx: RepositoryContext) {
    this.payments = new Repository<PaymentAttributes>(ctx, PAYMENT_TYPE, {
      path: (r) => `/v1/transaction/payments/${r.id}`,
      embeds: ['payment_admission'], // go-form3 PaymentRelationships: []*PaymentAdmission
    });
    this.admissions = new Repository<PaymentAdmissionAttributes>(ctx, PAYMENT_ADMISSION_TYPE, {
      path: (r) => `/v1/transaction/payments/${relatedId(r, 'payment')}/admissions/${r.id}`,
      embeds: ['payment'], // go-form3 PaymentAdmissionRelationships: RelationshipPayments, []*Payment
    });
    this.#events = ctx.events;
  }

  /**
   * Records an admitted inbound payment: the Payment (`created` for payments), then its Payment
   * Admission, confirmed and accepted at the scheme clock's time (`created` for payment_admissions).
   */
  admit(input: InboundPayment): { payment: Payment; admission: PaymentAdmission } {
    // Each announced with the other already there (they name each other).
    return this.#events.together(() => this.#admit(input));
  }

  #admit(input: InboundPayment): { payment: Payment; admission: PaymentAdmission } {
    const paymentId = input.id ?? newId();
    const admissionId = input.admission_id ?? newId();
    const admittedAt = isoTimestamp(input.admitted_at ?? this.payments.clock.now());
    const payment = this.payments.create({
      id: paymentId,
      created_on: admittedAt,
      organisation_id: input.organisation_id,
      attributes: input.attributes,
      relationships: {
        payment_admission: { data: [{ id: admissionId, type: PAYMENT_ADMISSION_TYPE }] },
        ...input.relationships,
      },
    });
    const admission = this.admissions.create({
      id: admissionId,
      created_on: admittedAt,
      organisation_id: input.organisation_id,
      attributes: {
        status: 'confirmed',
        status_reason: 'accepted',
        scheme_status_code: '',
        scheme_status_code_description: '',
        admission_datetime: admittedAt,
      },
      relationships: { payment: { data: [ref(payment)] } },
    });
    return { payment, admission };
  }

  get(id: string, organisationId: string): Payment {
    return this.payments.get(id, organisationId);
  }

  /** The organisation's payments in creation order, filtered (list-filter.ts). */
  list(organisationId: string, filter: PaymentFilter = {}): Payment[] {
    return this.payments.listFor(organisationId).filter(filterPredicate(filter, this.#filterFields));
  }

  readonly #filterFields: Readonly<Record<string, FilterField<Payment>>> = (() => {
    const attribute = (path: string) => (p: Payment) => valueAt(p.attributes, path);
    const admission = (p: Payment) => this.admissions.find(relatedId(p, 'payment_admission') ?? '')?.attributes;
    const fields: Record<string, FilterField<Payment>> = {
      processing_date_from: { value: attribute('processing_date'), compare: 'date_from' },
      processing_date_to: { value: attribute('processing_date'), compare: 'date_to' },
      'admission.status': { value: (p) => admission(p)?.status, compare: 'exact' },
      'admission.admission_date_from': { value: (p) => admission(p)?.admission_datetime, compare: 'date_from' },
      'admission.admission_date_to': { value: (p) => admission(p)?.admission_datetime, compare: 'date_to' },
      amount: { value: attribute('amount'), compare: 'number' },
      payment_scheme: { value: attribute('payment_scheme'), compare: 'case_insensitive' },
      'beneficiary_party.bank_id': { value: attribute('beneficiary_party.account_with.bank_id'), compare: 'exact' },
      'debtor_party.bank_id': { value: attribute('debtor_party.account_with.bank_id'), compare: 'exact' },
    };
    for (const name of PAYMENT_FILTERS) fields[name] ??= { value: attribute(name), compare: 'exact' };
    return fields;
  })();

  /** An admission of the payment; 404 when either is unknown or they do not belong together. */
  getAdmission(paymentId: string, admissionId: string, organisationId: string): PaymentAdmission {
    this.payments.get(paymentId, organisationId);
    return this.admissions.getChild(admissionId, organisationId, { payment: paymentId });
  }
}
