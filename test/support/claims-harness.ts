// A claims service on its own store, clock and scheduler, with a recording report fake: what the
// unit tests of the timeline (and the benchmark's baseline) drive.
import { randomUUID } from 'node:crypto';
import { type AdvanceRequest, advanceTarget } from '../../src/clock/advance.ts';
import { BacsCalendar } from '../../src/clock/calendar.ts';
import { type AdvanceResult, type Job, Scheduler } from '../../src/clock/scheduler.ts';
import { SchemeClock } from '../../src/clock/scheme-clock.ts';
import { claimAttributes } from '../../src/harness/claim-attributes.ts';
import type { ClaimAttributes } from '../../src/sim/claims/claim-resources.ts';
import { Claims } from '../../src/sim/claims/claims.ts';
import { EventBus, type RecordEvent } from '../../src/sim/events.ts';
import { Payments } from '../../src/sim/payments/payments.ts';
import type { ArrivalInput } from '../../src/sim/reports/report-types.ts';
import { ResourcePaths } from '../../src/sim/resource-paths.ts';
import { Scenarios } from '../../src/sim/scenarios/scenarios.ts';
import { openStore } from '../../src/store/store.ts';

export const HARNESS_ORG = '743d5b63-8e6f-432e-a8fa-c5d8d2ee5fcb';

export async function claimsHarness(start = '2026-12-21T09:00:00.000Z') {
  const store = await openStore();
  const clock = new SchemeClock({ initial: SchemeClock.frozenAt(start) });
  const scheduler = new Scheduler(clock, store.collection<Job>('scheduler_jobs'));
  const calendar = new BacsCalendar();
  const events = new EventBus();
  const seen: RecordEvent[] = [];
  events.on((e) => seen.push(e));
  const ctx = { store, clock, events, paths: new ResourcePaths() };
  const payments = new Payments(ctx);
  const reports: ArrivalInput[] = [];
  const scenarios = new Scenarios(ctx);
  const claims = new Claims(ctx, {
    scenarios,
    scheduler,
    calendar,
    payments,
    reports: { arrive: (input) => reports.push(input) },
  });
  return {
    store,
    clock,
    scheduler,
    calendar,
    payments,
    claims,
    scenarios,
    reports,
    events: seen,
    advance(request: AdvanceRequest): AdvanceResult {
      return scheduler.advanceTo(advanceTarget(clock.now(), request, calendar));
    },
    moveTo(instant: string): AdvanceResult {
      return scheduler.advanceTo(new Date(instant));
    },
    /** Creates and submits a claim now; returns both. */
    file(amounts: string[] = ['10.00'], overrides: Partial<ClaimAttributes> = {}, organisation_id = HARNESS_ORG) {
      const claim = claims.create({
        id: randomUUID(),
        organisation_id,
        attributes: claimAttributes(amounts, overrides),
      });
      const submission = claims.submit(claim.id, { id: randomUUID(), organisation_id }, organisation_id);
      return { claim, submission };
    },
  };
}

export type ClaimsHarness = Awaited<ReturnType<typeof claimsHarness>>;
