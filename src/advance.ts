// The scheme clock driven from code, for tests that use the runtime in process (README, "Using it
// from tests"): what POST /v1/simulator/clock/advance does, without HTTP.
import { type AdvanceRequest, advanceTarget, unitOf } from './clock/advance.ts';
import type { AdvanceResult } from './clock/scheduler.ts';
import { type ClockState, SchemeClock } from './clock/scheme-clock.ts';
import type { Runtime } from './runtime.ts';

/** A clock frozen at an instant: `createRuntime({ clock: frozenAt('2026-12-21T09:00:00Z') })`. */
export function frozenAt(instant: string | Date): ClockState {
  return SchemeClock.frozenAt(instant);
}

/**
 * Moves the scheme clock forward (`{ working_days: 14 }`, `{ days }`, `{ hours }` or `{ to }`),
 * running every job that falls due on the way in order, and makes the changes durable. A long
 * advance runs in slices that give the event loop back, as the HTTP route's does. Refuses what the
 * route refuses, with the same message (an AdvanceRefused: backward, outside the supported dates,
 * more than five years on).
 */
export async function advance(runtime: Pick<Runtime, 'sim'>, request: AdvanceRequest): Promise<AdvanceResult> {
  const { sim } = runtime;
  const result = await sim.longWork.exclusive('an advance', () => {
    const from = sim.clock.now();
    return sim.scheduler.advanceInSlices(advanceTarget(from, request, sim.calendar), { from, asked: unitOf(request) });
  });
  await sim.store.commit();
  return result;
}
