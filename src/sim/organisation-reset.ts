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

/**
 * Drops one organisation's records, deliveries and jobs, and leaves every other organisation's
 * in place. `resourceTypes` are the resource collections (each named after its type). Runs inside
 * the caller's unit of the store: a failure undoes all of it.
 */
export function dropOrganisation(
  store: Store,
  scheduler: Scheduler,
  resourceTypes: readonly string[],
  organisationId: string,
): OrganisationResetCounts {
  const records: Record<string, number> = {};
  const dropped = new Set<string>();
  for (const name of [...resourceTypes, ...ORGANISATION_COLLECTIONS]) {
    const rows = store.collection<{ id: string; organisation_id?: string }>(name);
    for (const row of rows.values()) {
      if (row.organisation_id !== organisationId) continue;
      rows.delete(row.id);
      dropped.add(row.id);
      records[name] = (records[name] ?? 0) + 1;
    }
  }
  for (const name of DEPENDENT_COLLECTIONS) {
    const rows = store.collection(name);
    for (const id of dropped) if (rows.delete(id)) records[name] = (records[name] ?? 0) + 1;
  }
  return { records, jobs: scheduler.cancelOwnedBy(organisationId) };
}
