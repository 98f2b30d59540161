// The package's public API: build the simulator in process or serve it, and the helpers a
// receiver of its notifications and a Confirmation of Payee requester (message signing) need.
// Everything else is internal and may change; msw handlers are the separate entry `scheme-sim/msw`.

export { advance, frozenAt } from './advance.ts';
export type { JwsProfile, SignatureErrorCode, VerifiedJwsHeader } from './api/open-banking/jws-profile.ts';
export {
  type CopRequestClaims,
  JwsProblem,
  signCopRequest,
  type VerifyCopResponseOptions,
  verifyCopResponse,
} from './api/open-banking/requester-tools.ts';
export type { AdvanceRequest } from './clock/advance.ts';
export type { AdvanceResult } from './clock/scheduler.ts';
export type { ClockState } from './clock/scheme-clock.ts';
export type { DeliveryOptions } from './delivery/delivery-worker.ts';
export { type ReceivedHeaders, secretProblem, signatureHeaders, verifyWebhook } from './delivery/signing.ts';
export {
  Form3NotificationError,
  type ReceivedNotification,
  type SigningKeyFetcher,
  signingKeysFromApi,
  verifyForm3Notification,
} from './delivery/verify-form3-notification.ts';
export { listen, type RunningServer } from './node/server.ts';
export { createRuntime, FIXTURES_DIR, type Runtime, type RuntimeOptions, type Worker } from './runtime.ts';
// GB IBANs with the check digits Form3 checks: for test data of accounts and payments.
export { gbIban, hasValidCheckDigits, ibanOf } from './sim/iban.ts';
export type { Notification } from './sim/notifications/notification.ts';
export { DEFAULT_RETRY_SCHEDULE, FAST_RETRY_SCHEDULE, type RetrySchedule } from './sim/notifications/retry-schedule.ts';
