// The rules every /v1 request passes before its route (who calls, as whom changes are made, fault
// rules, a sandbox's quota, the long-work wait), applied in one layer rather than one each.
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { LongWork } from '../../sim/long-work.ts';
import { asCaller } from '../as-caller.ts';
import { authenticateRequest } from '../auth/middleware.ts';
import { requestSignatures } from '../auth/request-signatures.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { faultLayer } from './fault-layer.ts';
import type { Faults } from './faults.ts';
import { waitsForLongWork } from './long-work-gate.ts';
import { assertRoomForRecords, type RecordQuota } from './record-quota.ts';

/**
 * In this order: authentication (401 and 403 before anything else), the client as the actor of the
 * changes the request makes (notifications' actioned_by), the client's fault rules (docs/faults.md;
 * never on by default), a sandbox's record quota, and the wait of a change while an advance or a
 * reset runs in slices (decision 014; reads are answered).
 *
 * The client is the actor of what runs synchronously from here, its route's code up to its first
 * await included (a route's change after an await names it again: src/api/as-caller.ts); where
 * this layer waits (a latency fault, long work running), it runs the rest as the client again.
 *
 * Each Hono layer is an async frame, a dispatch and promises per request: as four layers they cost
 * a create about a tenth of its CPU (issue 46). As one, a request pays a frame, and a promise only
 * where it waits.
 */
export function v1Layer(
  deps: AppDeps,
  faults: Faults,
  longWork: LongWork,
  quota: RecordQuota | undefined,
): MiddlewareHandler<AppEnv> {
  const signatures = requestSignatures(deps);
  const faultRules = faultLayer(faults);
  const gated = (c: Context<AppEnv>, next: Next): Promise<undefined> => {
    if (quota) assertRoomForRecords(c, quota);
    if (waitsForLongWork(longWork, c.req.method, c.req.path))
      return longWork.idle().then(() => asCaller(c, next)) as Promise<undefined>;
    return next() as Promise<undefined>;
  };
  const asClient = (c: Context<AppEnv>, next: Next): Promise<Response | undefined> => {
    const routed = () => asCaller(c, () => gated(c, next));
    return faults.size === 0 ? routed() : faultRules(c, routed);
  };
  return (c, next) => {
    const authenticating = authenticateRequest(c, deps, signatures);
    return authenticating ? authenticating.then(() => asClient(c, next)) : asClient(c, next);
  };
}
