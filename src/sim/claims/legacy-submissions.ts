// Data files written before claim submissions kept to Form3's enum hold two statuses it lacks:
// `settled` (now the claim's `relationships.payment`) and `accepted` waiting for validation (now
// `validation_pending`). They are read as today's records, so an upgrade keeps every claim.
import type { Collection } from '../../store/collection.ts';
import type { Claim, ClaimSubmission } from './claim-resources.ts';

/** The stored submission as today's model holds it (the same object when nothing changes). */
export function upgradedSubmission<T>(record: T): T {
  const s = record as unknown as { attributes?: { status?: string }; relationships?: Record<string, unknown> };
  const status = s?.attributes?.status;
  if (status === 'accepted') return { ...s, attributes: { ...s.attributes, status: 'validation_pending' } } as T;
  if (status !== 'settled') return record;
  const { payment: _moved, ...relationships } = s.relationships ?? {};
  return { ...s, attributes: { ...s.attributes, status: 'delivery_confirmed' }, relationships } as T;
}

/** Rewrites the stored legacy submissions in place; a settled one's payment moves to its claim. */
export function upgradeLegacySubmissions(submissions: Collection<ClaimSubmission>, claims: Collection<Claim>): void {
  for (const s of submissions.values()) {
    const upgraded = upgradedSubmission(s);
    if (upgraded === s) continue;
    const payment = s.relationships?.payment;
    const claimId = s.relationships?.claim?.data[0]?.id;
    const claim = claimId === undefined ? undefined : claims.get(claimId);
    if (payment && claim) claims.put({ ...claim, relationships: { ...claim.relationships, payment } });
    submissions.put(upgraded);
  }
}
