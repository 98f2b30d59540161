// Library entry: build the simulator in process, or serve it.

export { createApp } from './api/app.ts';
export {
  type JwsProfile,
  OB_IAT,
  OB_ISS,
  OB_TAN,
  type SignatureErrorCode,
  type VerifiedJwsHeader,
} from './api/open-banking/jws-profile.ts';
export {
  type CopRequestClaims,
  JwsProblem,
  signCopRequest,
  type VerifyCopResponseOptions,
  verifyCopResponse,
} from './api/open-banking/requester-tools.ts';
export { SCHEMA_DIR, schemaValidator } from './api/schemas/index.ts';
export { type AdvanceRequest, advanceTarget } from './clock/advance.ts';
export { BacsCalendar } from './clock/calendar.ts';
export { type Clock, ManualClock, systemClock } from './clock/clock.ts';
export { type AdvanceResult, type Job, type JobHandler, Scheduler } from './clock/scheduler.ts';
export { SchedulerTimer } from './clock/scheduler-timer.ts';
export { type ClockState, SchemeClock } from './clock/scheme-clock.ts';
export type { DeliveryOptions } from './delivery/delivery-worker.ts';
export { type ReceivedHeaders, secretProblem, signatureHeaders, verifyWebhook } from './delivery/signing.ts';
export { listen, type RunningServer } from './node/server.ts';
export { createRuntime, FIXTURES_DIR, type Runtime, type RuntimeOptions, type Worker } from './runtime.ts';
export { CLAIM_FILTERS, Claims } from './sim/claims/claims.ts';
export {
  DDIC_CLAIM_SUBMISSION_REPORT,
  type ReportArrivalInput,
  type ReportArrivals,
} from './sim/claims/report-arrivals.ts';
export type { Notification } from './sim/notifications/notification.ts';
export { DEFAULT_RETRY_SCHEDULE, FAST_RETRY_SCHEDULE, type RetrySchedule } from './sim/notifications/retry-schedule.ts';
export { type Payment, type PaymentAdmission, Payments } from './sim/payments/payments.ts';
export { Simulator } from './sim/simulator.ts';
export { openStore, type Store } from './store/store.ts';
