// The package's public API: build the simulator in process or serve it, and the client-side
// helpers (src/client): sign requests as Form3's SDK does, verify notifications, and sign and check
// Confirmation of Payee messages as a requester.
// Everything else is internal and may change; msw handlers are the separate entry `scheme-sim/msw`.

export { advance, frozenAt } from './advance.ts';
export {
  type CopRequestClaims,
  JwsProblem,
  signCopRequest,
  type VerifyCopResponseOptions,
  verifyCopResponse,
} from './client/cop-requester.ts';
export { form3SignedHeaders } from './client/form3-request-signer.ts';
export {
  Form3NotificationError,
  type ReceivedNotification,
  type SigningKeyFetcher,
  signingKeysFromApi,
  verifyForm3Notification,
} from './client/verify-form3-notification.ts';
export { type ReceivedHeaders, verifyWebhook } from './client/verify-webhook.ts';
export type { AdvanceRequest } from './clock/advance.ts';
export type { AdvanceResult } from './clock/scheduler.ts';
export type { ClockState } from './clock/scheme-clock.ts';
export type { DeliveryOptions } from './delivery/delivery-worker.ts';
export { listen, type RunningServer } from './node/server.ts';
export { createRuntime, FIXTURES_DIR, type Runtime, type RuntimeOptions, type Worker } from './runtime.ts';
export type { JwsProfile, SignatureErrorCode, VerifiedJwsHeader } from './signatures/jws-profile.ts';
export { secretProblem, signatureHeaders } from './signatures/notifications/standard-webhooks.ts';
export { DEFAULT_THRESHOLDS, type MatchThresholds } from './sim/cop/thresholds.ts';
// GB IBANs with the check digits Form3 checks: for test data of accounts and payments.
export { gbIban, hasValidCheckDigits, ibanOf } from './sim/iban.ts';
export type { Notification } from './sim/notifications/notification.ts';
export { DEFAULT_RETRY_SCHEDULE, FAST_RETRY_SCHEDULE, type RetrySchedule } from './sim/notifications/retry-schedule.ts';
