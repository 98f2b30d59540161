// Library entry: build the simulator in process, or serve it.
export { createRuntime, FIXTURES_DIR, type Runtime, type RuntimeOptions, type Worker } from './runtime.ts';
export { listen, type RunningServer } from './server.ts';
export { createApp } from './api/app.ts';
export { Simulator } from './sim/simulator.ts';
export { openStore, type Store } from './sim/store.ts';
export { BacsCalendar } from './clock/calendar.ts';
export { SchemeClock, type ClockState } from './clock/scheme-clock.ts';
export { Scheduler } from './clock/scheduler.ts';
export { systemClock, ManualClock, type Clock } from './clock/clock.ts';
export { schemaValidator, SCHEMA_DIR } from './api/schemas/index.ts';
export { verify as verifyWebhook, signatureHeaders, secretProblem } from './sim/notifications/signing.ts';
export { DEFAULT_RETRY_SCHEDULE, FAST_RETRY_SCHEDULE, type RetrySchedule } from './sim/notifications/retry-schedule.ts';
export type { Notification } from './sim/notifications/notification.ts';
export type { DeliveryOptions } from './sim/notifications/delivery-worker.ts';
