import { randomUUID } from 'node:crypto';
import { isoTimestamp } from '../../clock/clock.ts';
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
  scheme_payment_sub_type: string;
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

/** Exact-match filters of the payment list. */
export const PAYMENT_FILTERS = ['processing_date', 'scheme_payment_sub_type', 'payment_scheme', 'reference'] as const;
export type PaymentFilter = Partial<Record<(typeof PAYMENT_FILTERS)[number], string>>;

/** An inbound payment to record with its admission (the contra of a claims settlement is one). */
export interface InboundPayment {
  organisation_id: string;
  attributes: PaymentAttributes;
  /** Extra relationships of the payment (e.g. `claims`). */
  relationships?: Payment['relationships'];
}

/**
 * Inbound payments and their admissions. The simulator creates them (clients only read): today the
 * only source is the DDIC settlement contra.
 */
export class Payments {
  readonly payments: Repository<PaymentAttributes>;
  readonly admissions: Repository<PaymentAdmissionAttributes>;

  constructor(ctx: RepositoryContext) {
    this.payments = new Repository<PaymentAttributes>(ctx, PAYMENT_TYPE, {
      path: (r) => `/v1/transaction/payments/${r.id}`,
    });
    this.admissions = new Repository<PaymentAdmissionAttributes>(ctx, PAYMENT_ADMISSION_TYPE, {
      path: (r) => `/v1/transaction/payments/${relatedId(r, 'payment')}/admissions/${r.id}`,
    });
  }

  /**
   * Records an admitted inbound payment: the Payment (`created` for payments), then its Payment
   * Admission, confirmed and accepted at the scheme clock's time (`created` for payment_admissions).
   */
  admit(input: InboundPayment): { payment: Payment; admission: PaymentAdmission } {
    const paymentId = randomUUID();
    const admissionId = randomUUID();
    const payment = this.payments.create({
      id: paymentId,
      organisation_id: input.organisation_id,
      attributes: input.attributes,
      relationships: {
        payment_admission: { data: [{ id: admissionId, type: PAYMENT_ADMISSION_TYPE }] },
        ...input.relationships,
      },
    });
    const admission = this.admissions.create({
      id: admissionId,
      organisation_id: input.organisation_id,
      attributes: {
        status: 'confirmed',
        status_reason: 'accepted',
        scheme_status_code: '',
        scheme_status_code_description: '',
        admission_datetime: isoTimestamp(this.payments.clock.now()),
      },
      relationships: { payment: { data: [ref(payment)] } },
    });
    return { payment, admission };
  }

  get(id: string, organisationId: string): Payment {
    return this.payments.get(id, organisationId);
  }

  /** The organisation's payments in creation order, filtered by exact attribute values. */
  list(organisationId: string, filter: PaymentFilter = {}): Payment[] {
    return this.payments.list(organisationId, filter);
  }

  /** An admission of the payment; 404 when either is unknown or they do not belong together. */
  getAdmission(paymentId: string, admissionId: string, organisationId: string): PaymentAdmission {
    this.payments.get(paymentId, organisationId);
    return this.admissions.getChild(admissionId, organisationId, { payment: paymentId });
  }
}
