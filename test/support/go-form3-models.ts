// What Form3's Go SDK (form3tech-oss/go-form3 v7, pkg/generated/models) demands of an answer when it
// validates one (`Validate(strfmt.Default)`): the envelope and relationship rules of the resources
// the simulator serves, transcribed from the models' annotations (`Required: true`, `Format: uuid`,
// `Pattern`, `Enum`, `Minimum`) with the Go file of each. The SDK check (test/go-sdk, run by
// `npm run check:go-sdk`) runs the models themselves; this lets the TypeScript wire reproductions
// hold every answer to the same rules without Go. Attribute rules other than the status enums are
// left to the SDK check and to the simulator's own schemas (src/api/schemas).
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

type Schema = Record<string, unknown>;

const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const resourceType = { type: 'string', pattern: '^[A-Za-z_]*$' };
const ofModel = (model: string) => ({ $ref: `#/$defs/${model}` });
/** `XRelationshipsY{ Data []*Model }`: a relationship whose items are the related resource. */
const itemsOf = (model: string) => ({ type: 'object', properties: { data: { type: 'array', items: ofModel(model) } } });

/** A resource model: id and organisation_id required UUIDs, version ≥ 0, timestamps date-times. */
function resource(options: {
  attributesRequired: boolean;
  type?: Schema;
  attributes?: Schema;
  relationships?: Record<string, Schema>;
}): Schema {
  return {
    type: 'object',
    required: ['id', 'organisation_id', ...(options.attributesRequired ? ['attributes'] : [])],
    properties: {
      id: uuid,
      organisation_id: uuid,
      type: options.type ?? resourceType,
      version: { type: 'integer', minimum: 0 },
      created_on: dateTime,
      modified_on: dateTime,
      attributes: { type: 'object', ...(options.attributes ? { properties: options.attributes } : {}) },
      ...(options.relationships ? { relationships: { type: 'object', properties: options.relationships } } : {}),
    },
  };
}

/** claim_submission_status.go: ClaimSubmissionStatus, used by both submission kinds. */
const claimSubmissionStatus = {
  enum: [
    'accepted',
    'validation_failed',
    'validation_pending',
    'validation_passed',
    'released_to_gateway',
    'queued_for_delivery',
    'delivery_confirmed',
    'delivery_failed',
  ],
};

const MODELS: Record<string, Schema> = {
  // account.go (relationships: account_events and master_account, links only; none served)
  Account: resource({ attributesRequired: true, attributes: { country: { type: 'string', pattern: '^[A-Z]{2}$' } } }),
  // subscription.go: type Pattern ^[A-Za-z]*$
  Subscription: resource({ attributesRequired: true, type: { type: 'string', pattern: '^[A-Za-z]*$' } }),
  // claim.go, claim_relationships.go
  Claim: resource({
    attributesRequired: true,
    relationships: { claim_reversal: itemsOf('ClaimReversal'), claim_submission: itemsOf('ClaimSubmission') },
  }),
  // claim_submission.go, claim_submission_relationships.go
  ClaimSubmission: resource({
    attributesRequired: false,
    attributes: { status: claimSubmissionStatus },
    relationships: { claim: itemsOf('Claim') },
  }),
  // claim_reversal.go (attributes.original_instruction_id Required), claim_reversal_relationships.go
  ClaimReversal: {
    allOf: [
      resource({
        attributesRequired: true,
        relationships: { claim: itemsOf('Claim'), claim_reversal_submission: itemsOf('ClaimReversalSubmission') },
      }),
      { properties: { attributes: { required: ['original_instruction_id'] } } },
    ],
  },
  // claim_reversal_submission.go, claim_reversal_submission_relationships.go
  ClaimReversalSubmission: resource({
    attributesRequired: false,
    attributes: { status: claimSubmissionStatus },
    relationships: { claim: itemsOf('Claim'), claim_reversal: itemsOf('ClaimReversal') },
  }),
  // payment.go, payment_relationships.go (payment_admission: []*PaymentAdmission)
  Payment: resource({ attributesRequired: true, relationships: { payment_admission: itemsOf('PaymentAdmission') } }),
  // payment_admission.go (PaymentAdmissionRelationships.payment: RelationshipPayments, []*Payment),
  // payment_admission_status.go
  PaymentAdmission: resource({
    attributesRequired: false,
    attributes: { status: { enum: ['confirmed', 'failed', 'pending'] } },
    relationships: { payment: itemsOf('Payment') },
  }),
  // report.go (type Enum ["reports"]), report_relationships.go
  Report: resource({
    attributesRequired: true,
    type: { enum: ['reports'] },
    relationships: { report_admission: itemsOf('ReportAdmission') },
  }),
  // report_admission.go (type Enum ["report_admissions"]), report_admission_relationships.go, report_admission_status.go
  ReportAdmission: resource({
    attributesRequired: false,
    type: { enum: ['report_admissions'] },
    attributes: { status: { enum: ['delivery_confirmed', 'confirmed', 'failed'] } },
    relationships: { report: itemsOf('Report') },
  }),
};

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema({ $id: 'go-form3', $defs: MODELS });

export type Go3Model = keyof typeof MODELS;

/**
 * The rules of go-form3's models the answer breaks (empty when it validates): `model` is the
 * resource model of `data`, a single answer (`XDetailsResponse`: data is the model) or a list
 * (`XDetailsListResponse`: data is an array of it).
 */
export function go3ModelProblems(model: Go3Model, answer: unknown): string[] {
  const data = (answer as { data?: unknown } | null)?.data;
  const validate = ajv.getSchema(`go-form3#/$defs/${model}`)!;
  const problems: string[] = [];
  const items = Array.isArray(data) ? data : [data];
  items.forEach((item, i) => {
    if (validate(item)) return;
    const at = Array.isArray(data) ? `data.${i}` : 'data';
    for (const e of validate.errors ?? []) {
      problems.push(`${at}${e.instancePath.replace(/\//g, '.')} ${e.message} (go-form3 ${model})`);
    }
  });
  return problems;
}
