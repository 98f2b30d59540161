// Every operation the app serves, with the schema of its body and of its answer: the source of the
// OpenAPI document (openapi.ts). A test holds it to the app's own routes, both ways.
import { ACCOUNT_FILTERS } from '../sim/accounts.ts';
import { CLAIM_FILTERS } from '../sim/claims/claims.ts';
import { SUBSCRIPTION_FILTERS } from '../sim/notifications/subscriptions.ts';
import { PAYMENT_FILTERS } from '../sim/payments/payments.ts';
import { REPORT_FILTERS } from '../sim/reports/report-filter.ts';
import { DELIVERY_FILTERS } from './routes/simulator-deliveries.ts';

export interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI form: `/v1/transaction/claims/{id}`. */
  path: string;
  tag: string;
  summary: string;
  /** The schema of the JSON body, if it takes one. */
  body?: string;
  /** The success status and the schema of its JSON answer (none: no body, `binary`: a file). */
  status: number;
  answer?: string;
  /** `filter[...]` names of a list; a list also takes page[number], page[size], page[after|before]. */
  filters?: readonly string[];
  /** Answered without a token. */
  open?: boolean;
}

const op = (
  method: Operation['method'],
  path: string,
  tag: string,
  summary: string,
  status: number,
  answer?: string,
  extra: Partial<Operation> = {},
): Operation => ({ method, path, tag, summary, status, ...(answer ? { answer } : {}), ...extra });

const ACCOUNTS = '/v1/organisation/accounts';
const SUBS = '/v1/notification/subscriptions';
const CLAIMS = '/v1/transaction/claims';
const PAYMENTS = '/v1/transaction/payments';
const REPORTS = '/v1/notification/reports';
const SIM = '/v1/simulator';

export const ROUTE_TABLE: readonly Operation[] = [
  op('GET', '/health', 'Simulator', 'Liveness and the scheme clock, without a token', 200, undefined, { open: true }),
  op('GET', '/v1/openapi.json', 'Simulator', 'This OpenAPI document', 200, undefined, { open: true }),
  op('POST', '/v1/oauth2/token', 'Authentication', 'An access token (OAuth2 client credentials)', 200, 'token', {
    open: true,
  }),
  op('POST', ACCOUNTS, 'Accounts', 'Create an account', 201, 'account-single', { body: 'account-create' }),
  op('GET', ACCOUNTS, 'Accounts', 'List accounts', 200, 'account-list', { filters: ACCOUNT_FILTERS }),
  op('GET', `${ACCOUNTS}/{id}`, 'Accounts', 'Fetch an account', 200, 'account-single'),
  op('PATCH', `${ACCOUNTS}/{id}`, 'Accounts', 'Amend an account', 200, 'account-single', { body: 'account-update' }),
  op('DELETE', `${ACCOUNTS}/{id}`, 'Accounts', 'Delete an account (?version=)', 204),
  op('POST', SUBS, 'Subscriptions', 'Create a subscription', 201, 'subscription-single', {
    body: 'subscription-create',
  }),
  op('GET', SUBS, 'Subscriptions', 'List subscriptions', 200, 'subscription-list', { filters: SUBSCRIPTION_FILTERS }),
  op('GET', `${SUBS}/{id}`, 'Subscriptions', 'Fetch a subscription', 200, 'subscription-single'),
  op('PATCH', `${SUBS}/{id}`, 'Subscriptions', 'Amend a subscription', 200, 'subscription-single', {
    body: 'subscription-update',
  }),
  op('DELETE', `${SUBS}/{id}`, 'Subscriptions', 'Delete a subscription (?version=)', 204),
  op(
    'GET',
    `${SUBS}/{id}/errors`,
    'Subscriptions',
    'Failed deliveries of a subscription',
    200,
    'subscription-delivery-error-list',
  ),
  op('POST', CLAIMS, 'Claims', 'Create a DDIC claim', 201, 'claim-single', { body: 'claim-create' }),
  op('GET', CLAIMS, 'Claims', 'List claims', 200, 'claim-list', { filters: CLAIM_FILTERS }),
  op('GET', `${CLAIMS}/{id}`, 'Claims', 'Fetch a claim', 200, 'claim-single'),
  op('POST', `${CLAIMS}/{id}/submissions`, 'Claims', 'Submit a claim', 201, 'claim-submission-single', {
    body: 'claim-submission-create',
  }),
  op('GET', `${CLAIMS}/{id}/submissions/{sid}`, 'Claims', 'Fetch a claim submission', 200, 'claim-submission-single'),
  op('POST', `${CLAIMS}/{id}/reversals`, 'Claims', 'Reverse a claim', 201, 'claim-reversal-single', {
    body: 'claim-reversal-create',
  }),
  op('GET', `${CLAIMS}/{id}/reversals/{rid}`, 'Claims', 'Fetch a claim reversal', 200, 'claim-reversal-single'),
  op(
    'POST',
    `${CLAIMS}/{id}/reversals/{rid}/submissions`,
    'Claims',
    'Submit a claim reversal',
    201,
    'claim-reversal-submission-single',
    { body: 'claim-reversal-submission-create' },
  ),
  op(
    'GET',
    `${CLAIMS}/{id}/reversals/{rid}/submissions/{sid}`,
    'Claims',
    'Fetch a claim reversal submission',
    200,
    'claim-reversal-submission-single',
  ),
  op('GET', PAYMENTS, 'Payments', 'List payments (the DDIC contras)', 200, 'payment-list', {
    filters: PAYMENT_FILTERS,
  }),
  op('GET', `${PAYMENTS}/{id}`, 'Payments', 'Fetch a payment', 200, 'payment-single'),
  op(
    'GET',
    `${PAYMENTS}/{id}/admissions/{aid}`,
    'Payments',
    'Fetch a payment admission',
    200,
    'payment-admission-single',
  ),
  op('GET', REPORTS, 'Reports', 'List reports', 200, 'report-list', { filters: REPORT_FILTERS }),
  op(
    'GET',
    `${REPORTS}/{id}`,
    'Reports',
    'Fetch a report, or its file by Accept (PDF, XML, zipped XHTML)',
    200,
    'report-single',
  ),
  op('GET', `${REPORTS}/{id}/content`, 'Reports', "A report's file, by Accept (PDF, XML, zipped XHTML)", 200, 'binary'),
  op(
    'GET',
    `${REPORTS}/{id}/admissions/{admission_id}`,
    'Reports',
    'Fetch a report admission',
    200,
    'report-admission-single',
  ),
  op(
    'GET',
    '/v1/platform/security/signing_keys',
    'Notifications',
    'Keys notifications are signed with',
    200,
    'signing-key-list',
  ),
  op(
    'GET',
    '/v1/platform/security/signing_keys/{id}',
    'Notifications',
    'One notification signing key',
    200,
    'signing-key-single',
  ),
  op(
    'POST',
    '/v1/participants/{open_banking_id}/open-banking/v3.1/accounts/name-verification',
    'Confirmation of Payee',
    'Verify a payee name (Open Banking CoP v3.1)',
    200,
    'name-verification-response',
    { body: 'name-verification-request' },
  ),
  op(
    'GET',
    '/v1/participants/{open_banking_id}/jwks.json',
    'Confirmation of Payee',
    "A participant's signing keys (JWKS)",
    200,
    undefined,
    {
      open: true,
    },
  ),
  op('GET', `${SIM}/clock`, 'Simulator', 'The scheme clock', 200, 'clock'),
  op(
    'POST',
    `${SIM}/clock/advance`,
    'Simulator',
    'Advance the scheme clock, running every job due',
    200,
    'clock-advanced',
    {
      body: 'clock-advance',
    },
  ),
  op('POST', `${SIM}/clock/freeze`, 'Simulator', 'Freeze the scheme clock', 200, 'clock'),
  op('POST', `${SIM}/clock/resume`, 'Simulator', 'Resume the scheme clock', 200, 'clock', { body: 'clock-resume' }),
  op('GET', `${SIM}/calendar`, 'Simulator', 'Bacs working days and holidays (?from=&to=)', 200, 'calendar'),
  op('POST', `${SIM}/reset`, 'Simulator', "Reset the caller's organisation (or all, admin)", 200, 'clock', {
    body: 'simulator-reset',
  }),
  op('GET', `${SIM}/deliveries`, 'Simulator', 'Notification delivery attempts', 200, 'delivery-attempt-list', {
    filters: DELIVERY_FILTERS,
  }),
  op('GET', `${SIM}/deliveries/pending`, 'Simulator', 'Deliveries still to be made', 200, 'notification-delivery-list'),
  op('GET', `${SIM}/deliveries/{id}`, 'Simulator', 'One delivery', 200, 'notification-delivery'),
  op('POST', `${SIM}/deliveries/{id}/redeliver`, 'Simulator', 'Send a delivery again', 202, 'notification-delivery'),
  op('POST', `${SIM}/reports`, 'Simulator', 'A report of the catalogue arrives now', 201, undefined, {
    body: 'report-inject',
  }),
  op('POST', `${SIM}/faults`, 'Simulator', 'Set a fault rule', 201, undefined, { body: 'fault-create' }),
  op('GET', `${SIM}/faults`, 'Simulator', 'Fault rules', 200, 'fault-list'),
  op('DELETE', `${SIM}/faults`, 'Simulator', 'Remove every fault rule', 204),
  op('DELETE', `${SIM}/faults/{id}`, 'Simulator', 'Remove a fault rule', 204),
  op('GET', `${SIM}/scenarios`, 'Simulator', 'The scenario catalogue', 200, 'scenario-catalogue'),
  op('POST', `${SIM}/scenarios`, 'Simulator', 'Play a scenario', 201, 'scenario-single', { body: 'scenario-create' }),
  op('GET', `${SIM}/scenarios/played`, 'Simulator', 'Played scenarios', 200, 'scenario-list', {
    filters: ['target_id', 'name', 'status'],
  }),
  op('GET', `${SIM}/scenarios/{id}`, 'Simulator', 'One played scenario', 200, 'scenario-single'),
  op('GET', `${SIM}/requests`, 'Simulator', 'The request journal', 200, 'request-journal', {
    filters: ['status', 'method', 'path', 'error_code'],
  }),
  op('DELETE', `${SIM}/requests`, 'Simulator', 'Clear the request journal', 204),
];
