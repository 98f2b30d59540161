import type { Context } from 'hono';
import { assertOwnOrganisation } from './auth/middleware.ts';
import { readJson } from './body.ts';
import type { AppEnv } from './context.ts';
import { validateOrThrow } from './validate.ts';

/** What a create of any /v1 resource hands the domain. */
export interface NewRecordBody<A> {
  id: string;
  organisation_id: string;
  attributes: A;
}

/**
 * Reads a create body: validated against its schema (400 naming each field and rule), for the
 * caller's own organisation (403 otherwise), ids lower-cased as the store keeps them.
 */
export async function readCreateBody<A>(c: Context<AppEnv>, schema: string): Promise<NewRecordBody<A>> {
  const body = validateOrThrow<{ data: { id: string; organisation_id: string; attributes: A } }>(
    schema,
    await readJson(c),
  );
  assertOwnOrganisation(c.get('organisationId'), body.data.organisation_id);
  return {
    id: body.data.id.toLowerCase(),
    organisation_id: body.data.organisation_id.toLowerCase(),
    attributes: body.data.attributes,
  };
}
