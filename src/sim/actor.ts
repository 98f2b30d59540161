// Notifications say who made a change (`actioned_by`) without every domain call passing the caller
// along: the actor held in one slot around the synchronous work of a change, the scheme when unset.

/**
 * Who a change is made by, for `actioned_by` in notifications. Set only while `runAs` runs its
 * synchronous work, so it never outlives the change: another request's work, or background work
 * (a timer, a delivery, a job fired by a running clock), always starts with it unset.
 *
 * Not AsyncLocalStorage: on Node 20 its promise hook runs on every promise of the process, about
 * 14 µs of a 190 µs account create (issue 46, decision 042). Every change is synchronous (handlers
 * of jobs and events too: src/sim/events.ts), so a slot set around the call that makes it is
 * exact; where a request awaits before a change, the change is run as its caller after the await
 * (src/api/as-caller.ts), and long work takes the caller's `runAs` for each of its slices.
 */
let current: string | undefined;

/**
 * The actor when no request is in progress: the simulated scheme itself (background work). A UUID,
 * as Form3's `actioned_by` is one (its system user's id is not public: this one is the simulator's).
 */
export const SCHEME_ACTOR = '5c4e3e51-0000-4000-8000-000000000001';

/**
 * Runs `work` as `actor`: its synchronous part only. Work that `work` schedules or awaits (a promise
 * it returns settles later) runs as whoever runs it then; run each later change through `runAs` again.
 */
export function runAs<T>(actor: string, work: () => T): T {
  const outer = current;
  current = actor;
  try {
    return work();
  } finally {
    current = outer;
  }
}

/** The actor of the change in progress: the client of the request making it, else the scheme. */
export function currentActor(): string {
  return current ?? SCHEME_ACTOR;
}
