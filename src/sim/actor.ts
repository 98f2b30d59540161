// Notifications say who made a change (`actioned_by`) without every domain call passing the caller
// along: the actor carried through async work, the scheme itself when no request is in progress.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Who a change is made by, for `actioned_by` in notifications. */
const actors = new AsyncLocalStorage<string>();

/**
 * The actor when no request is in progress: the simulated scheme itself (background work). A UUID,
 * as Form3's `actioned_by` is one (its system user's id is not public: this one is the simulator's).
 */
export const SCHEME_ACTOR = '5c4e3e51-0000-4000-8000-000000000001';

/** Runs `fn` (and everything it awaits) as `actor`. */
export function runAs<T>(actor: string, fn: () => T): T {
  return actors.run(actor, fn);
}

/** The actor of the change in progress: the client id of the request, else the scheme. */
export function currentActor(): string {
  return actors.getStore() ?? SCHEME_ACTOR;
}
