import { AsyncLocalStorage } from 'node:async_hooks';

/** Who a change is made by, for `actioned_by` in notifications. */
const actors = new AsyncLocalStorage<string>();

/** The actor when no request is in progress: the simulated scheme itself (background work). */
export const SCHEME_ACTOR = 'scheme-sim';

/** Runs `fn` (and everything it awaits) as `actor`. */
export function runAs<T>(actor: string, fn: () => T): T {
  return actors.run(actor, fn);
}

/** The actor of the change in progress: the client id of the request, else the scheme. */
export function currentActor(): string {
  return actors.getStore() ?? SCHEME_ACTOR;
}
