// A PATCH body may repeat the record's identity but never name another record or organisation:
// the one check of that, for every resource that can be updated.
import { assertOwnOrganisation } from '../auth/middleware.ts';
import { ApiError } from '../wire/errors.ts';

/**
 * The identity a PATCH body may repeat: `data.id` must be the id in the path (400) and
 * `data.organisation_id` the caller's organisation (403). Both are optional in the body.
 */
export function assertBodyIdentity(
  pathId: string,
  callerOrganisation: string,
  data: { id?: string; organisation_id?: string },
): void {
  if (data.id !== undefined && data.id.toLowerCase() !== pathId)
    throw new ApiError(400, `id in body must equal the id in the path (${pathId})`);
  if (data.organisation_id !== undefined) assertOwnOrganisation(callerOrganisation, data.organisation_id);
}
