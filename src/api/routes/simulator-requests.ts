import { type Context, Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { page, queryOf } from '../envelope.ts';
import { methodNotAllowed } from '../errors.ts';
import { parseFilters } from '../filters.ts';
import type { JournalEntry, RequestJournal } from '../request-journal.ts';

const view = ({ id, ...attributes }: JournalEntry) => ({ type: 'journal_entries', id, attributes });

/**
 * /v1/simulator/requests: the request journal of the caller's organisation, newest first
 * (docs/observability.md). Filters: status (`404` or `4xx`), method, path (a prefix), error_code.
 */
export function simulatorRequestRoutes(journal: RequestJournal): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const org = (c: Context<AppEnv>) => c.get('organisationId');
  r.get('/', (c) => {
    const filter = parseFilters(queryOf(c), ['status', 'method', 'path', 'error_code'] as const);
    return c.json(page(c, journal.list(org(c), filter), view));
  });
  r.delete('/', (c) => {
    journal.clear(org(c));
    return c.body(null, 204);
  });
  r.all('/', methodNotAllowed(['GET', 'DELETE']));
  return r;
}
