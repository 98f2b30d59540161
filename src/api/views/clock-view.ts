// The clock answer is shown by several routes (the clock's own, reset) and by a sandbox: its one
// shape, so they never drift apart.
import { isSupportedInstant } from '../../clock/dates.ts';
import { londonDate } from '../../clock/london.ts';
import type { Simulator } from '../../sim/simulator.ts';

/**
 * The scheme clock as the control API shows it (schema `clock#/$defs/clock`). The clock is shared;
 * `next_due` and `pending_jobs` count the viewing organisation's jobs and those of none.
 */
export function clockView(sim: Simulator, organisationId: string) {
  const now = sim.clock.now();
  const { count, next } = sim.scheduler.pendingOf(organisationId);
  const date = londonDate(now);
  return {
    now: now.toISOString(),
    mode: sim.clock.mode,
    speed: sim.clock.speed,
    london_date: date,
    // Outside the supported dates the calendar knows no working days.
    bacs_working_day: isSupportedInstant(now) && sim.calendar.isBacsWorkingDay(date),
    next_due: next ? next.toISOString() : null,
    pending_jobs: count,
  };
}
