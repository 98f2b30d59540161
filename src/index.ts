// Library entry: build the simulator in process, or serve it.
export { createRuntime, FIXTURES_DIR, type Runtime, type RuntimeOptions, type Worker } from './runtime.ts';
export { listen, type RunningServer } from './server.ts';
export { createApp } from './api/app.ts';
export { Simulator } from './sim/simulator.ts';
export { openStore, type Store } from './sim/store.ts';
export { BacsCalendar } from './clock/calendar.ts';
export { SchemeClock, type ClockState } from './clock/scheme-clock.ts';
export { Scheduler, type Job, type JobHandler, type AdvanceResult } from './clock/scheduler.ts';
export { SchedulerTimer } from './clock/scheduler-timer.ts';
export { advanceTarget, type AdvanceRequest } from './clock/advance.ts';
export { systemClock, ManualClock, type Clock } from './clock/clock.ts';
export { schemaValidator, SCHEMA_DIR } from './api/schemas/index.ts';
export { Claims, CLAIM_FILTERS } from './sim/claims/claims.ts';
export { DDIC_CLAIM_SUBMISSION_REPORT, type ReportArrivals, type ReportArrivalInput } from './sim/claims/report-arrivals.ts';
export { Payments, type Payment, type PaymentAdmission } from './sim/payments/payments.ts';
