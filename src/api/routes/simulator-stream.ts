// Watching a running simulator live (`scheme-sim logs --follow`, `listen`, the dashboard) without
// polling: the live log as server-sent events.
import { streamSSE } from 'hono/streaming';
import type { AppDeps } from '../context.ts';
import type { LiveEvent, LiveLog } from '../journal/live-log.ts';
import { entryMatches, type JournalEntry, statusMatches } from '../journal/request-journal.ts';
import { defineRoutes, type RouteGroup } from '../route-declaration.ts';
import { queryOf } from '../wire/envelope.ts';
import { ApiError } from '../wire/errors.ts';
import { parseId } from '../wire/ids.ts';
import { journalFilterOf } from './simulator-requests.ts';

const STREAM_FILTERS = ['kind', 'status', 'method', 'path', 'own'] as const;
const KINDS = ['request', 'delivery', 'reset'] as const;
/** Events written but not yet taken by a slow client before the stream is closed on it. */
const MAX_BACKLOG = 10_000;
/** A comment line now and then: a client gone without closing is found by the failed write. */
const HEARTBEAT_MS = 15_000;

/**
 * GET /v1/simulator/stream: the caller's organisation's live log as server-sent events (requests,
 * delivery attempts, resets), filtered as the journal is (status also matches a delivery's
 * response code; method and path leave deliveries out). `attach=ID,ID` holds subscriptions of the
 * caller while the stream is open, so a reset keeps them (scheme-sim listen). The stream itself is
 * not journaled (docs/observability.md).
 */
export function simulatorStreamRoutes(deps: AppDeps, live: LiveLog): RouteGroup {
  const r = defineRoutes('/v1/simulator/stream', 'Simulator');
  const doc = {
    summary: 'Requests, delivery attempts and resets as they happen (server-sent events)',
    answer: 'event-stream',
    filters: STREAM_FILTERS,
  };
  r.get('/', doc, (c) => {
    const query = queryOf(c);
    const filter = journalFilterOf(query, STREAM_FILTERS);
    const kinds = (filter.kind ?? KINDS.join(',')).split(',');
    const wrong = kinds.find((k) => !(KINDS as readonly string[]).includes(k));
    if (wrong !== undefined) throw new ApiError(400, `filter[kind] in query should be one of [${KINDS.join(' ')}]`);
    const organisationId = c.get('organisationId');
    const attach = (query.get('attach') ?? '')
      .split(',')
      .filter(Boolean)
      .map((id) => parseId(id, 'attach'));
    // Each must be one of the caller's subscriptions (404 otherwise, as a GET of it would answer).
    for (const id of attach) deps.sim.subscriptions.get(id, organisationId);
    const wanted = (e: LiveEvent): boolean => {
      if (!kinds.includes(e.kind)) return false;
      if (e.kind === 'request') return entryMatches(e.entry, organisationId, filter);
      if (e.kind === 'delivery')
        return (
          e.attempt.organisation_id === organisationId &&
          filter.method === undefined &&
          filter.path === undefined &&
          (filter.status === undefined ||
            (e.attempt.response_code !== null && statusMatches(filter.status, e.attempt.response_code)))
        );
      return e.organisation_id === undefined || e.organisation_id === organisationId;
    };
    return streamSSE(c, async (stream) => {
      const release = deps.sim.listeners.attach(attach);
      let backlog = 0;
      let chain = Promise.resolve();
      const send = (event: string, data: unknown, id?: string) => {
        backlog++;
        chain = chain.then(async () => {
          await stream.writeSSE({ event, data: JSON.stringify(data), ...(id ? { id } : {}) });
          backlog--;
        });
      };
      let done: () => void = () => undefined;
      const ended = new Promise<void>((resolve) => (done = resolve));
      const unfollow = live.follow((e) => {
        if (!wanted(e)) return;
        if (backlog >= MAX_BACKLOG) {
          send('overflow', { error_message: `more than ${MAX_BACKLOG} events not taken; follow again` });
          return done();
        }
        if (e.kind === 'request') send('request', lineOf(e.entry), e.entry.id);
        else if (e.kind === 'delivery') send('delivery', e.attempt, e.attempt.id);
        else
          send('reset', {
            scope: e.organisation_id === undefined ? 'all' : 'organisation',
            ...(e.organisation_id ? { organisation_id: e.organisation_id } : {}),
            kept_subscriptions: attach.filter((id) => deps.sim.subscriptions.find(id)),
          });
      });
      const heartbeat = setInterval(() => {
        chain = chain.then(() => stream.write(': heartbeat\n\n').then(() => undefined));
      }, HEARTBEAT_MS);
      heartbeat.unref();
      stream.onAbort(done);
      send('ready', { organisation_id: organisationId, attached: attach });
      try {
        await ended;
        await chain;
      } finally {
        clearInterval(heartbeat);
        unfollow();
        release();
      }
    });
  });
  return r;
}

/** A journal entry as the stream carries it: the line, without headers or bodies. */
function lineOf(e: JournalEntry) {
  const { headers: _h, body: _b, response_body: _r, body_truncated: _bt, response_truncated: _rt, ...line } = e;
  return line;
}
