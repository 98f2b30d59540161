// A sandbox is bounded (--sandbox-records) so one test run cannot fill a shared server: the layer that
// refuses a create once it is full.
import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../context.ts';
import { ApiError } from '../wire/errors.ts';

/** A sandbox's limit of records, and how many it holds. */
export type RecordQuota = NonNullable<AppDeps['recordQuota']>;

/**
 * Throws 403 for a request that would add records (a POST outside the simulator's control routes)
 * once the sandbox holds its quota. Reads, deletes and the clock still work, so a full sandbox can
 * be emptied (a reset) or deleted.
 */
export function assertRoomForRecords(c: Context<AppEnv>, quota: RecordQuota): void {
  if (c.req.method === 'POST' && !c.req.path.startsWith('/v1/simulator/') && quota.count() >= quota.limit)
    throw new ApiError(
      403,
      `this sandbox holds ${quota.limit} records, its limit (--sandbox-records); delete records, reset the sandbox or use another`,
    );
}
