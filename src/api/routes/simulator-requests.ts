// The request journal over HTTP: what the simulator saw and answered, for a client debugging its own
// requests (docs/observability.md).
import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import type { JournalEntry, JournalFilter, RequestJournal } from '../journal/request-journal.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { page, queryOf } from '../wire/envelope.ts';
import { ApiError } from '../wire/errors.ts';
import { parseFilters } from '../wire/filters.ts';

/** Filters of the journal: status (`404` or `4xx`), method, path (a prefix), error_code, own. */
const JOURNAL_FILTERS = ['status', 'method', 'path', 'error_code', 'own'] as const;

/** The journal's filters of a request; `own` is `true`, `false` or both (comma-separated). */
export function journalFilterOf<K extends string>(
  query: URLSearchParams,
  allowed: readonly K[],
): JournalFilter & Partial<Record<K, string>> {
  const filter = parseFilters(query, allowed) as JournalFilter & Partial<Record<K, string>>;
  if (filter.own !== undefined && !filter.own.split(',').every((v) => v === 'true' || v === 'false'))
    throw new ApiError(400, 'filter[own] in query should be one of [true false] (or both, comma-separated)');
  return filter;
}

const view = ({ id, ...attributes }: JournalEntry) => ({ type: 'journal_entries', id, attributes });

/**
 * /v1/simulator/requests: the request journal of the caller's organisation, newest first
 * (docs/observability.md). Filters: status (`404` or `4xx`), method, path (a prefix), error_code,
 * own (the simulator's own tools' reads, hidden by default). Reading it is not journaled.
 */
export function simulatorRequestRoutes(journal: RequestJournal): RouteGroup {
  const r = defineRoutes('/v1/simulator/requests', 'Simulator');
  const org = (c: Context<AppEnv>) => c.get('organisationId');
  r.get('/', { summary: 'The request journal', answer: 'request-journal', filters: JOURNAL_FILTERS }, (c) => {
    const filter = journalFilterOf(queryOf(c), JOURNAL_FILTERS);
    return c.json(page(c, journal.list(org(c), filter), view));
  });
  r.delete('/', { summary: 'Clear the request journal', status: 204 }, (c, answer) => {
    journal.clear(org(c));
    return answer();
  });
  return r;
}
