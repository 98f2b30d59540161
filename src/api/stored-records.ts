// A store opened from disk is checked before it is trusted: which schema each collection's records
// must match, and which stored secrets may never be silently made anew (decision 021).
import type { ErrorObject } from 'ajv';
import { upgradedSubmission } from '../sim/claims/legacy-submissions.ts';
import { SIGNING_KEYS_META } from '../sim/cop/participant-signing-keys.ts';
import { NOTIFICATION_KEYS_META } from '../sim/notifications/notification-signing-keys.ts';
import type { SecretSpec } from '../store/issued-secrets.ts';
import { META_COLLECTION, type RecordCheck } from '../store/load-check.ts';
import { schemaValidator } from './schemas/index.ts';

/**
 * The schema each collection's records must match when a store opens: the resource schemas of the
 * API (a record is stored as the API shows it, but for relationship items, stored as references:
 * schemas/index.ts storedRecordSchemas) and small schemas of the simulator's own records.
 * A collection missing here is refused: a data file from elsewhere is not read on trust.
 */
export const STORED_RECORD_SCHEMAS: Readonly<Record<string, string>> = {
  accounts: 'account',
  subscriptions: 'subscription',
  claims: 'claim',
  claim_submissions: 'claim-submission',
  claim_reversals: 'claim-reversal',
  claim_reversal_submissions: 'claim-reversal-submission',
  payments: 'payment',
  payment_admissions: 'payment-admission',
  reports: 'report',
  report_admissions: 'report-admission',
  report_rows: 'stored-report-rows',
  subscription_secrets: 'stored-subscription-secret',
  notification_outbox: 'stored-outbox-entry',
  notification_delivery_attempts: 'stored-delivery-attempt',
  scheduler_jobs: 'stored-scheduler-job',
  scenarios: 'scenario',
  name_verifications: 'name-verification',
  name_verification_submissions: 'name-verification-submission',
  name_verification_admissions: 'name-verification-admission',
};

/** `attributes.bank_id must match pattern "…"`: the first rule a value breaks, with its path. */
function firstRule(errors: ErrorObject[] | null | undefined, root: string): string {
  // allOf/anyOf wrappers report a generic error after the specific one: the specific one names the rule.
  const e = errors?.find((x) => x.keyword !== 'allOf' && x.keyword !== 'if') ?? errors?.[0];
  if (!e) return `${root} is invalid`;
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  const where = path ? `${root === 'record' ? '' : `${root}.`}${path}` : root;
  if (e.keyword === 'additionalProperties')
    return `${where} has ${(e.params as { additionalProperty: string }).additionalProperty}, which it may not`;
  if (e.keyword === 'required')
    return `${where === 'record' ? '' : `${where}.`}${(e.params as { missingProperty: string }).missingProperty} is required`;
  return `${where} ${e.message ?? `breaks ${e.keyword}`}`;
}

function metaProblem(key: string, value: unknown): string | undefined {
  const validate = schemaValidator('stored-meta');
  if (validate({ [key]: value })) return undefined;
  // `meta.clock.speed must be > 0` reads `speed must be > 0` under the key; the key's own value, `must be string`.
  const rule = firstRule(validate.errors, 'meta');
  if (rule.startsWith(`meta.${key}.`)) return rule.slice(`meta.${key}.`.length);
  if (rule.startsWith(`meta.${key} `)) return `the value ${rule.slice(`meta.${key} `.length)}`;
  return rule;
}

/** The load check of every store engine: the rule a record breaks, or undefined when it is sound. */
export const storedRecordProblem: RecordCheck = (collection, id, record) => {
  if (collection === META_COLLECTION) return metaProblem(id, record);
  const schemaId = STORED_RECORD_SCHEMAS[collection];
  if (!schemaId) return `collection ${collection} is not one scheme-sim keeps`;
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    return `the record must be an object, got ${Array.isArray(record) ? 'an array' : JSON.stringify(record)}`;
  const validate = schemaValidator(schemaId, { storedRecords: true });
  // Older data files' claim submissions are upgraded when the claims service opens (legacy-submissions.ts).
  if (collection === 'claim_submissions') record = upgradedSubmission(record);
  if (!validate(record)) return `${firstRule(validate.errors, 'record')} (schema ${schemaId})`;
  const recordId = (record as { id?: unknown }).id;
  if (recordId !== id) return `id ${JSON.stringify(recordId)} differs from the key it is stored under`;
  return undefined;
};

/**
 * The meta keys that hold secrets a client relies on: one the store issued and lost stops start-up
 * (and `doctor` reports it) instead of being made anew without a word (docs/store.md, "Keys and tokens").
 */
export const STORED_SECRETS: readonly SecretSpec[] = [
  { key: 'auth_key', loss: 'every access token issued with the old one would stop verifying', madeAtFirstStart: true },
  {
    key: SIGNING_KEYS_META,
    loss: "the name-verification participants' published JWKS would change under the clients that cached it",
  },
  {
    key: NOTIFICATION_KEYS_META,
    loss: "receivers that cached the notification signing key would stop verifying the simulator's notifications",
  },
];
