// A reset of one organisation must leave every other organisation's records alone and must not hold
// the event loop: what goes, and how it goes in slices.
import type { Scheduler } from '../clock/scheduler.ts';
import type { Store } from '../store/store.ts';

/**
 * The collections whose rows name their organisation (`organisation_id`) beside the resource
 * collections, and those keyed by the id of an organisation's record (a subscription's secret,
 * a report's rows). A collection added to the simulator belongs in one of these lists: the reset
 * test counts every collection of a populated store.
 */
export const ORGANISATION_COLLECTIONS = ['notification_outbox', 'notification_delivery_attempts'] as const;
export const DEPENDENT_COLLECTIONS = ['subscription_secrets', 'report_rows'] as const;

export interface OrganisationResetCounts {
  /** Rows dropped, by collection (collections with none are left out). */
  records: Record<string, number>;
  /** Scheduler jobs of the organisation that were cancelled. */
  jobs: number;
}

/** Rows dropped per unit of the store before the event loop gets a turn. */
export const RESET_SLICE_ROWS = 2000;

export interface ResetSlices {
  /** Between two slices: commits what was dropped so far and gives the event loop back. */
  boundary: () => Promise<void>;
  /** Rows per slice (default RESET_SLICE_ROWS). */
  rows?: number;
  /** Runs in the last unit, after every row and job is gone (the reset hooks). */
  finish?: () => void;
  /** Rows (by id) the reset leaves in place: a live listener's subscriptions. */
  keep?: (id: string) => boolean;
}

type OwnedRow = { id: string; organisation_id?: string };

/**
 * Drops the rows of the named collections that `which` picks, in slices of `slices.rows` rows,
 * each one unit of the store, with `slices.boundary` between two. Rows that went meanwhile are
 * skipped. Returns the rows dropped by collection and their ids.
 */
export async function dropRowsInSlices(
  store: Store,
  names: readonly string[],
  which: (row: OwnedRow) => boolean,
  slices: ResetSlices,
): Promise<{ records: Record<string, number>; dropped: Set<string> }> {
  const size = slices.rows ?? RESET_SLICE_ROWS;
  const records: Record<string, number> = {};
  const dropped = new Set<string>();
  const picked: Array<[name: string, id: string]> = [];
  for (const name of names)
    for (const row of store.collection<OwnedRow>(name).values()) if (which(row)) picked.push([name, row.id]);
  let i = 0;
  const dropSome = (): void => {
    for (const end = Math.min(picked.length, i + size); i < end; i++) {
      const [name, id] = picked[i]!;
      if (!store.collection(name).delete(id)) continue;
      dropped.add(id);
      records[name] = (records[name] ?? 0) + 1;
    }
  };
  for (;;) {
    store.atomically(dropSome);
    if (i >= picked.length) return { records, dropped };
    await slices.boundary();
  }
}

/**
 * Drops one organisation's records, deliveries and jobs, and leaves every other organisation's
 * in place. `resourceTypes` are the resource collections (each named after its type). The rows go
 * in slices (`dropRowsInSlices`), so a big organisation does not hold the event loop; the
 * dependents, the jobs and `slices.finish` go in the last unit. A reset that fits in one slice
 * never awaits. A reset stopped half way (a failed unit, a crash) leaves the organisation partly
 * reset: resetting it again finishes the job.
 */
export async function dropOrganisation(
  store: Store,
  scheduler: Scheduler,
  resourceTypes: readonly string[],
  organisationId: string,
  slices: ResetSlices,
): Promise<OrganisationResetCounts> {
  const { records, dropped } = await dropRowsInSlices(
    store,
    [...resourceTypes, ...ORGANISATION_COLLECTIONS],
    (row) => row.organisation_id === organisationId && !slices.keep?.(row.id),
    slices,
  );
  return store.atomically(() => {
    for (const name of DEPENDENT_COLLECTIONS) {
      const rows = store.collection(name);
      for (const id of dropped) if (rows.delete(id)) records[name] = (records[name] ?? 0) + 1;
    }
    const jobs = scheduler.cancelOwnedBy(organisationId);
    slices.finish?.();
    return { records, jobs };
  });
}
